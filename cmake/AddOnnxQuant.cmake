# Thin wrappers over the MLIR CMake helpers (CIRCT style).

# add_onnxquant_library(name src... [DEPENDS tgt...] [MLIR_LIBS lib...]
#                       [LINK_LIBS lib...] [LINK_COMPONENTS comp...])
# MLIR_LIBS go through mlir_target_link_libraries so they resolve to libMLIR.so;
# LINK_LIBS are our own libraries (and third-party ones).
function(add_onnxquant_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS;LINK_COMPONENTS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
endfunction()
