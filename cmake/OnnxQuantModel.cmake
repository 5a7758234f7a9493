# onnx_quant_add_model(): compile an ONNX model at build time.
#
# Loaded by find_package(OnnxQuant CONFIG); see docs/user-guide.md.
#
#   onnx_quant_add_model(<target>
#     MODEL <file>                 model to compile (.onnx, or anything
#                                  onnx-quant-opt reads: .onnxtext, .mlir, ...);
#                                  relative paths are relative to
#                                  CMAKE_CURRENT_SOURCE_DIR. Required. It may
#                                  be the OUTPUT of an add_custom_command of
#                                  the same directory.
#     [ENTRY <name>]               prefix of the exported C symbols (<name>_run,
#                                  ...) and name of the outputs <name>.o and
#                                  <name>.h. Default: the model file's stem made
#                                  into a C identifier (as onnx-quant-opt does).
#                                  Must be unique in the project, so that
#                                  several models link into one program.
#     [CALIBRATION_DATA <dir>]     calibration data directory (formats in
#                                  docs/user-guide.md). Given to the calibrate
#                                  pass as its `data=<dir>` option, so PASSES
#                                  must contain --onnx-calibrate[=options].
#                                  Every file and subdirectory is a dependency:
#                                  changing, adding or removing a file
#                                  recompiles the model.
#     [PASSES <flag>...]           onnx-quant-opt pass flags run before the
#                                  lowering, in order, e.g.
#                                  --onnx-fold-batchnorm
#                                  "--onnx-calibrate=method=entropy"
#                                  --onnx-quantize. One flag per argument; no
#                                  shell quoting (the options of a flag go in
#                                  the same argument, separated by spaces).
#     [MTRIPLE <triple>]           target triple. Default: the host; when
#                                  cross-compiling (CMAKE_CROSSCOMPILING, e.g. a
#                                  toolchain file), the C/C++ compiler's target
#                                  (CMAKE_<LANG>_COMPILER_TARGET, else the
#                                  compiler's -dumpmachine).
#     [MCPU <cpu>]                 target CPU. Default: the build machine's CPU
#                                  for host builds (set it, e.g. x86-64-v3, for
#                                  binaries that run on other machines),
#                                  generic for cross builds.
#     [MATTR <attrs>]              target features, e.g. +neon,+dotprod.
#     [DEPENDS <file>...]          further files the compile reads (e.g. a
#                                  model's external data); rebuild on change.
#   )
#
# Adds a custom command producing ${CMAKE_CURRENT_BINARY_DIR}/<name>.o and
# <name>.h, and a STATIC library <target> holding the object; linking it gives
# the include directory of <name>.h and libm. The command depends on the model,
# on the compiler executable and on the calibration files. Target properties
# ONNX_QUANT_ENTRY, ONNX_QUANT_HEADER and ONNX_QUANT_OBJECT give the entry name
# and the output paths.
#
# The compiler is OnnxQuant_EXECUTABLE (set by OnnxQuantConfig.cmake to the
# package's onnx-quant-opt; define ONNX_QUANT_OPT_EXECUTABLE before
# find_package to use another one). It may also name a CMake target.
#
#   onnx_quant_has_pass(<flag> <out-var>)
#
# Sets <out-var> to TRUE when the compiler's --help lists the pass flag
# <flag> (e.g. --onnx-quantize), FALSE otherwise. Runs the compiler at
# configure time (once per configure run and compiler binary).

include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.20)

# _onnx_quant_error(<target> <text>...): the texts are concatenated.
function(_onnx_quant_error target)
  string(CONCAT msg ${ARGN})
  message(FATAL_ERROR "onnx_quant_add_model(${target}): ${msg}")
endfunction()

# Same rule as onnx-quant-opt's default entry: non-alphanumerics become '_',
# and a name that is empty or starts with a digit gets an 'm_' prefix.
function(_onnx_quant_c_identifier out text)
  string(REGEX REPLACE "[^A-Za-z0-9]" "_" id "${text}")
  if(id STREQUAL "" OR id MATCHES "^[0-9]")
    set(id "m_${id}")
  endif()
  set(${out} "${id}" PARENT_SCOPE)
endfunction()

# The triple a cross build targets: the compiler's explicit target, else
# what the compiler reports with -dumpmachine.
function(_onnx_quant_cross_triple out)
  set(triple "")
  foreach(lang C CXX)
    if(NOT triple AND CMAKE_${lang}_COMPILER_TARGET)
      set(triple "${CMAKE_${lang}_COMPILER_TARGET}")
    endif()
  endforeach()
  foreach(lang C CXX)
    if(NOT triple AND CMAKE_${lang}_COMPILER)
      execute_process(COMMAND "${CMAKE_${lang}_COMPILER}" -dumpmachine
                      OUTPUT_VARIABLE dump OUTPUT_STRIP_TRAILING_WHITESPACE
                      RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0 AND dump)
        set(triple "${dump}")
      endif()
    endif()
  endforeach()
  set(${out} "${triple}" PARENT_SCOPE)
endfunction()

function(onnx_quant_has_pass flag out)
  if(TARGET "${OnnxQuant_EXECUTABLE}")
    message(FATAL_ERROR "onnx_quant_has_pass: OnnxQuant_EXECUTABLE names the "
            "target '${OnnxQuant_EXECUTABLE}', which is not built at configure time")
  endif()
  if(NOT OnnxQuant_EXECUTABLE OR NOT EXISTS "${OnnxQuant_EXECUTABLE}")
    message(FATAL_ERROR "onnx_quant_has_pass: compiler not found "
            "(OnnxQuant_EXECUTABLE='${OnnxQuant_EXECUTABLE}')")
  endif()
  # Cache per compiler and timestamp, so a rebuilt compiler is asked again.
  file(TIMESTAMP "${OnnxQuant_EXECUTABLE}" stamp "%s" UTC)
  string(MD5 key "${OnnxQuant_EXECUTABLE};${stamp}")
  get_property(help GLOBAL PROPERTY _ONNX_QUANT_HELP_${key})
  if(NOT help)
    execute_process(COMMAND "${OnnxQuant_EXECUTABLE}" --help
                    OUTPUT_VARIABLE help ERROR_VARIABLE help_err
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "onnx_quant_has_pass: '${OnnxQuant_EXECUTABLE} --help' "
              "failed (${rc}): ${help_err}")
    endif()
    set_property(GLOBAL PROPERTY _ONNX_QUANT_HELP_${key} "${help}")
  endif()
  string(REGEX REPLACE "=.*" "" flag "${flag}")
  string(REGEX REPLACE "^-+" "" name "${flag}")
  string(REGEX REPLACE "([][+.*?^$()|\\\\])" "\\\\\\1" name_re "${name}")
  if(help MATCHES "(^|\n)[ \t]*--${name_re}([= \t\n]|$)")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(onnx_quant_add_model target)
  set(one_value MODEL ENTRY CALIBRATION_DATA MTRIPLE MCPU MATTR)
  set(multi_value PASSES DEPENDS)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "${one_value}" "${multi_value}")

  if(ARG_UNPARSED_ARGUMENTS)
    list(JOIN ARG_UNPARSED_ARGUMENTS " " unparsed)
    _onnx_quant_error(${target} "unknown argument(s) '${unparsed}' "
      "(keywords: MODEL ENTRY CALIBRATION_DATA PASSES MTRIPLE MCPU MATTR DEPENDS)")
  endif()
  foreach(kw IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    if(NOT kw STREQUAL "PASSES" AND NOT kw STREQUAL "DEPENDS")
      _onnx_quant_error(${target} "${kw} needs a value")
    endif()
  endforeach()
  if(TARGET ${target})
    _onnx_quant_error(${target} "a target named '${target}' already exists")
  endif()

  # The compiler.
  if(NOT OnnxQuant_EXECUTABLE)
    _onnx_quant_error(${target} "OnnxQuant_EXECUTABLE is not set: call "
      "find_package(OnnxQuant CONFIG REQUIRED) first")
  endif()
  if(TARGET "${OnnxQuant_EXECUTABLE}")
    set(tool "$<TARGET_FILE:${OnnxQuant_EXECUTABLE}>")
    set(tool_depends "${OnnxQuant_EXECUTABLE}")
  else()
    set(tool "${OnnxQuant_EXECUTABLE}")
    set(tool_depends "${OnnxQuant_EXECUTABLE}")
  endif()

  # MODEL
  if(NOT DEFINED ARG_MODEL)
    _onnx_quant_error(${target} "MODEL <file> is required")
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A model produced by the build (the OUTPUT of an add_custom_command in
  # this directory) need not exist yet.
  get_source_file_property(model_generated "${model}" GENERATED)
  if(NOT model_generated AND (NOT EXISTS "${model}" OR IS_DIRECTORY "${model}"))
    _onnx_quant_error(${target} "MODEL file '${model}' does not exist")
  endif()

  # ENTRY
  if(DEFINED ARG_ENTRY)
    set(entry "${ARG_ENTRY}")
    if(NOT entry MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _onnx_quant_error(${target} "ENTRY '${entry}' is not a C identifier")
    endif()
  else()
    get_filename_component(stem "${model}" NAME_WLE)
    _onnx_quant_c_identifier(entry "${stem}")
  endif()
  get_property(owner GLOBAL PROPERTY _ONNX_QUANT_ENTRY_${entry})
  if(owner)
    _onnx_quant_error(${target} "ENTRY '${entry}' is already used by target "
      "'${owner}': the symbols ${entry}_run, ... would clash in one program; "
      "give each model a distinct ENTRY")
  endif()
  set_property(GLOBAL PROPERTY _ONNX_QUANT_ENTRY_${entry} ${target})

  # CALIBRATION_DATA and PASSES
  set(calib_depends "")
  if(DEFINED ARG_CALIBRATION_DATA)
    get_filename_component(calib "${ARG_CALIBRATION_DATA}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT IS_DIRECTORY "${calib}")
      _onnx_quant_error(${target} "CALIBRATION_DATA directory '${calib}' does not exist")
    endif()
    file(GLOB_RECURSE calib_files LIST_DIRECTORIES false "${calib}/*")
    if(NOT calib_files)
      _onnx_quant_error(${target} "CALIBRATION_DATA directory '${calib}' is empty")
    endif()
    file(GLOB_RECURSE calib_dirs LIST_DIRECTORIES true "${calib}/*")
    list(FILTER calib_dirs EXCLUDE REGEX "^$")
    set(dirs "${calib}")
    foreach(d IN LISTS calib_dirs)
      if(IS_DIRECTORY "${d}")
        list(APPEND dirs "${d}")
      endif()
    endforeach()
    # Files: a changed file recompiles. Directories: their time stamps change
    # when an entry is added, removed or renamed, which recompiles, and
    # re-runs CMake so that the new file list becomes the dependency list.
    set(calib_depends ${calib_files} ${dirs})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${dirs})
    if(calib MATCHES "\"")
      _onnx_quant_error(${target} "CALIBRATION_DATA path '${calib}' contains a double quote")
    elseif(calib MATCHES "[ \t']")
      set(calib_opt "data=\"${calib}\"")
    else()
      set(calib_opt "data=${calib}")
    endif()
  endif()

  set(passes "")
  set(found_calibrate FALSE)
  foreach(flag IN LISTS ARG_PASSES)
    if(flag MATCHES "^--?onnx-calibrate(=(.*))?$")
      set(found_calibrate TRUE)
      set(options "${CMAKE_MATCH_2}")
      if(options MATCHES "(^|[ \t])data=")
        if(DEFINED ARG_CALIBRATION_DATA)
          _onnx_quant_error(${target} "PASSES '${flag}' sets data= and "
            "CALIBRATION_DATA is given too: give the directory once, as CALIBRATION_DATA")
        endif()
        message(AUTHOR_WARNING "onnx_quant_add_model(${target}): '${flag}' "
          "sets data= inside PASSES: changes to that data do not trigger a "
          "rebuild; use CALIBRATION_DATA <dir> instead")
      elseif(DEFINED ARG_CALIBRATION_DATA)
        if(options STREQUAL "")
          set(flag "--onnx-calibrate=${calib_opt}")
        else()
          set(flag "--onnx-calibrate=${calib_opt} ${options}")
        endif()
      endif()
    endif()
    list(APPEND passes "${flag}")
  endforeach()
  if(DEFINED ARG_CALIBRATION_DATA AND NOT found_calibrate)
    _onnx_quant_error(${target} "CALIBRATION_DATA is given but PASSES has no "
      "--onnx-calibrate flag to give it to (e.g. PASSES --onnx-calibrate --onnx-quantize)")
  endif()

  # Target: explicit, else the cross compiler's, else the host (the tool's
  # default).
  set(target_flags "")
  if(DEFINED ARG_MTRIPLE)
    list(APPEND target_flags "--mtriple=${ARG_MTRIPLE}")
  elseif(CMAKE_CROSSCOMPILING)
    _onnx_quant_cross_triple(triple)
    if(NOT triple)
      _onnx_quant_error(${target} "cross-compiling, and the compiler's target "
        "triple could not be found (no CMAKE_C_COMPILER_TARGET, no -dumpmachine); "
        "give MTRIPLE <triple>")
    endif()
    list(APPEND target_flags "--mtriple=${triple}")
  endif()
  if(DEFINED ARG_MCPU)
    list(APPEND target_flags "--mcpu=${ARG_MCPU}")
  endif()
  if(DEFINED ARG_MATTR)
    list(APPEND target_flags "--mattr=${ARG_MATTR}")
  endif()

  set(extra_depends "")
  foreach(f IN LISTS ARG_DEPENDS)
    get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND extra_depends "${f}")
  endforeach()

  set(obj "${CMAKE_CURRENT_BINARY_DIR}/${entry}.o")
  set(hdr "${CMAKE_CURRENT_BINARY_DIR}/${entry}.h")
  add_custom_command(
    OUTPUT "${obj}" "${hdr}"
    COMMAND "${tool}" "${model}" ${passes} --emit=obj "--entry=${entry}"
            ${target_flags} -o "${obj}" "--header=${hdr}"
    DEPENDS "${model}" "${tool_depends}" ${calib_depends} ${extra_depends}
    COMMENT "Compiling ONNX model ${ARG_MODEL} to ${entry}.o"
    VERBATIM)
  set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)

  # The archive needs a linker language: C if enabled, else C++.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST languages)
    set(language C)
  elseif("CXX" IN_LIST languages)
    set(language CXX)
  else()
    _onnx_quant_error(${target} "enable the C or CXX language (project(... LANGUAGES C)) "
      "before adding a model")
  endif()

  add_library(${target} STATIC "${obj}" "${hdr}")
  set_target_properties(${target} PROPERTIES
    LINKER_LANGUAGE ${language}
    ONNX_QUANT_ENTRY "${entry}"
    ONNX_QUANT_HEADER "${hdr}"
    ONNX_QUANT_OBJECT "${obj}")
  target_include_directories(${target} INTERFACE "${CMAKE_CURRENT_BINARY_DIR}")
  if(UNIX AND NOT APPLE)
    # As a flag: a plain "m" would name a target called m.
    target_link_libraries(${target} INTERFACE -lm)
  endif()
endfunction()
