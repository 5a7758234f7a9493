# Thin wrappers over the MLIR CMake helpers (CIRCT style).

# add_onnxquant_library(name src... [DEPENDS tgt...] [MLIR_LIBS lib...]
#                       [LINK_LIBS lib...] [LINK_COMPONENTS comp...])
# MLIR_LIBS go through mlir_target_link_libraries so they resolve to libMLIR.so;
# LINK_LIBS are our own libraries (and third-party ones). COMPILE_OPTIONS
# apply to the library's own sources only.
function(add_onnxquant_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS;LINK_COMPONENTS;COMPILE_OPTIONS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  # The object library compiles the sources: it needs the usage requirements
  # (include dirs, definitions such as ONNX_ML) of what the library links.
  if(TARGET obj.${name} AND ARG_LINK_LIBS)
    target_link_libraries(obj.${name} ${ARG_LINK_LIBS})
  endif()
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  if(ARG_COMPILE_OPTIONS)
    foreach(target ${name} obj.${name})
      if(TARGET ${target})
        target_compile_options(${target} PRIVATE ${ARG_COMPILE_OPTIONS})
      endif()
    endforeach()
  endif()
endfunction()

# add_onnxquant_pass_doc(<name>): the reference of the passes declared in this
# directory's Passes.td, generated with mlir-tblgen -gen-pass-doc into
# build/docs/<name>.md, and collected into build/docs/Passes.md (the page the
# user guide links to) by cmake/OnnxQuantDocs.cmake. Call it next to each new
# Passes.td; nothing else needs to change.
function(add_onnxquant_pass_doc name)
  add_mlir_doc(Passes ${name} ./ -gen-pass-doc)
  set_property(GLOBAL APPEND PROPERTY ONNXQUANT_PASS_DOCS ${name})
endfunction()
