# The CMake package (find_package(OnnxQuant CONFIG)) for the build tree
# (build/lib/cmake/OnnxQuant) and for installs (<prefix>/lib/cmake/OnnxQuant),
# and the install rules.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(ONNX_QUANT_CMAKE_SUBDIR "lib/cmake/OnnxQuant")
set(_build_pkg "${PROJECT_BINARY_DIR}/${ONNX_QUANT_CMAKE_SUBDIR}")

# Build tree: absolute paths; the function file is read from the sources, so
# edits to it take effect without reconfiguring onnx-quant.
set(ONNX_QUANT_CONFIG_KIND "build tree")
set(ONNX_QUANT_CONFIG_PREFIX "")
set(ONNX_QUANT_CONFIG_EXE "${LLVM_RUNTIME_OUTPUT_INTDIR}/onnx-quant-opt")
set(ONNX_QUANT_CONFIG_MODEL_CMAKE "${PROJECT_SOURCE_DIR}/cmake/OnnxQuantModel.cmake")
set(ONNX_QUANT_CONFIG_INCLUDE "${PROJECT_SOURCE_DIR}/include")
configure_file(cmake/OnnxQuantConfig.cmake.in "${_build_pkg}/OnnxQuantConfig.cmake" @ONLY)

# Install tree: relocatable, paths relative to this file.
set(ONNX_QUANT_CONFIG_KIND "install")
set(ONNX_QUANT_CONFIG_PREFIX
  "get_filename_component(_onnx_quant_prefix \"\${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)")
set(ONNX_QUANT_CONFIG_EXE "\${_onnx_quant_prefix}/bin/onnx-quant-opt")
set(ONNX_QUANT_CONFIG_MODEL_CMAKE "\${CMAKE_CURRENT_LIST_DIR}/OnnxQuantModel.cmake")
set(ONNX_QUANT_CONFIG_INCLUDE "\${_onnx_quant_prefix}/include")
configure_file(cmake/OnnxQuantConfig.cmake.in
               "${PROJECT_BINARY_DIR}/CMakeFiles/OnnxQuantConfig.install.cmake" @ONLY)

write_basic_package_version_file("${_build_pkg}/OnnxQuantConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)

# The installed compiler finds libMLIR.so/libLLVM.so where the build found
# them (Debian: /usr/lib/llvm-22/lib, not on the default library path).
foreach(tool onnx-quant-opt onnx-quant-debug)
  set_property(TARGET ${tool} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
endforeach()
install(TARGETS onnx-quant-opt onnx-quant-debug RUNTIME DESTINATION bin
        COMPONENT onnx-quant)
install(FILES "${PROJECT_BINARY_DIR}/CMakeFiles/OnnxQuantConfig.install.cmake"
        DESTINATION ${ONNX_QUANT_CMAKE_SUBDIR} RENAME OnnxQuantConfig.cmake
        COMPONENT onnx-quant)
install(FILES "${_build_pkg}/OnnxQuantConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/OnnxQuantModel.cmake"
        DESTINATION ${ONNX_QUANT_CMAKE_SUBDIR} COMPONENT onnx-quant)
install(FILES include/onnxq_pool.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT onnx-quant)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT onnx-quant)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT onnx-quant FILES_MATCHING PATTERN "*.md")
install(DIRECTORY examples DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT onnx-quant)
