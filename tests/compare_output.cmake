# compare_output.cmake — run a lipq script and compare its deterministic output
# with an expected file.  Used by tests/scripts.cmake as `cmake -P`.
#
#   -DLIPQ=<lipq binary> -DSCRIPT=<script, relative to ROOT> -DROOT=<repo root>
#   -DARGS=<script arguments, separated by |>          (optional)
#   -DEXPECTED=<expected output file>                  (optional)
#   -DEXPECTED_LINES=<n>: compare with the first n lines of EXPECTED only
#                        (a quick run computes a prefix of the seed's output)
#   -DREQUIRE=<regex> that the whole output (timing lines included) must match (optional)
#
# Lines starting with ";" are timing lines and notes: they are removed before
# the comparison.  The script must exit with status 0.
foreach(v LIPQ SCRIPT ROOT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "compare_output.cmake: -D${v}=... is required")
  endif()
endforeach()

set(args "")
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "|" ";" args "${ARGS}")
endif()

execute_process(COMMAND "${LIPQ}" "${SCRIPT}" ${args}
                WORKING_DIRECTORY "${ROOT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} ${ARGS} exited with ${rc}\n--- stderr:\n${err}\n--- stdout:\n${out}")
endif()

if(DEFINED REQUIRE AND NOT out MATCHES "${REQUIRE}")
  message(FATAL_ERROR "${SCRIPT} ${ARGS}: output does not match \"${REQUIRE}\":\n${out}")
endif()

if(NOT DEFINED EXPECTED OR EXPECTED STREQUAL "")
  return()
endif()

# Drop the timing lines: every line that starts with ";".
string(REGEX REPLACE "\n;[^\n]*" "" actual "\n${out}")
string(REGEX REPLACE "^\n" "" actual "${actual}")

file(READ "${EXPECTED}" expected)
if(DEFINED EXPECTED_LINES)
  set(pos 0)
  set(rest "${expected}")
  set(prefix "")
  foreach(i RANGE 1 ${EXPECTED_LINES})
    string(FIND "${rest}" "\n" nl)
    if(nl EQUAL -1)
      message(FATAL_ERROR "${EXPECTED} has fewer than ${EXPECTED_LINES} lines")
    endif()
    math(EXPR len "${nl} + 1")
    string(SUBSTRING "${rest}" 0 ${len} line)
    string(APPEND prefix "${line}")
    string(SUBSTRING "${rest}" ${len} -1 rest)
  endforeach()
  set(expected "${prefix}")
endif()

if(NOT actual STREQUAL expected)
  get_filename_component(name "${SCRIPT}" NAME_WE)
  string(REPLACE "|" "_" tag "${ARGS}")
  set(act_file "${CMAKE_CURRENT_BINARY_DIR}/${name}${tag}.actual.txt")
  set(exp_file "${CMAKE_CURRENT_BINARY_DIR}/${name}${tag}.expected.txt")
  file(WRITE "${act_file}" "${actual}")
  file(WRITE "${exp_file}" "${expected}")
  execute_process(COMMAND diff -u "${exp_file}" "${act_file}" OUTPUT_VARIABLE d)
  message(FATAL_ERROR "${SCRIPT} ${ARGS}: output differs from ${EXPECTED}\n${d}")
endif()
message(STATUS "${SCRIPT} ${ARGS}: output matches ${EXPECTED}")
