# Generated reference docs in build/docs (never committed; see STYLE.md):
#   build/docs/Passes.md              every pass of every Passes.td registered
#                                     with add_onnxquant_pass_doc, in one page
#   build/docs/<name>.md              each Passes.td's page
#   build/docs/Dialects/ONNXDialect.md  the onnx dialect
# Built by default (target onnx-quant-doc) and installed to
# <prefix>/share/doc/onnx-quant/generated.

get_property(_pass_docs GLOBAL PROPERTY ONNXQUANT_PASS_DOCS)
set(_doc_dir "${MLIR_BINARY_DIR}/docs")
set(_pass_doc_files "")
set(_pass_doc_targets "")
foreach(name IN LISTS _pass_docs)
  list(APPEND _pass_doc_files "${_doc_dir}/${name}.md")
  list(APPEND _pass_doc_targets ${name}DocGen)
endforeach()

add_custom_command(
  OUTPUT "${_doc_dir}/Passes.md"
  COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${_doc_dir}/Passes.md"
          "-DINPUTS=${_pass_doc_files}"
          -P "${PROJECT_SOURCE_DIR}/cmake/ConcatPassDocs.cmake"
  DEPENDS ${_pass_doc_files} "${PROJECT_SOURCE_DIR}/cmake/ConcatPassDocs.cmake"
  COMMENT "Generating docs/Passes.md"
  VERBATIM)
add_custom_target(onnx-quant-doc ALL DEPENDS "${_doc_dir}/Passes.md")
add_dependencies(onnx-quant-doc ${_pass_doc_targets} ONNXDialectDocGen)

install(FILES "${_doc_dir}/Passes.md" ${_pass_doc_files}
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/generated COMPONENT onnx-quant)
install(FILES "${_doc_dir}/Dialects/ONNXDialect.md"
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/generated/Dialects COMPONENT onnx-quant)
