# scripts.cmake — the puzzle scripts (scripts/*.lisp) against the seeds' outputs
# (tests/expected/seeds/*.txt).  Each test runs a script from the repository root
# in its quick mode and compares what it prints, timing lines (";") removed.
# Included from tests/CMakeLists.txt.

set(LIPQ_SEEDS_EXPECTED ${CMAKE_SOURCE_DIR}/tests/expected/seeds)

# lipq_script_test(NAME script ARGS "a|b" [EXPECTED file] [EXPECTED_LINES n] [REQUIRE regex])
function(lipq_script_test name script)
  cmake_parse_arguments(T "" "ARGS;EXPECTED;EXPECTED_LINES;REQUIRE" "" ${ARGN})
  set(defs -DLIPQ=$<TARGET_FILE:lipq> -DSCRIPT=${script} -DROOT=${CMAKE_SOURCE_DIR}
           "-DARGS=${T_ARGS}")
  if(T_EXPECTED)
    list(APPEND defs -DEXPECTED=${LIPQ_SEEDS_EXPECTED}/${T_EXPECTED})
  endif()
  if(T_EXPECTED_LINES)
    list(APPEND defs -DEXPECTED_LINES=${T_EXPECTED_LINES})
  endif()
  if(T_REQUIRE)
    list(APPEND defs "-DREQUIRE=${T_REQUIRE}")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} ${defs} -P ${CMAKE_CURRENT_SOURCE_DIR}/compare_output.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS scripts)
endfunction()

lipq_script_test(script.queue scripts/queue.lisp ARGS quick EXPECTED queue.txt
                 REQUIRE "; two-stack queue")
lipq_script_test(script.keiro scripts/keiro.lisp ARGS quick EXPECTED keiro.txt)
lipq_script_test(script.knight scripts/knight.lisp ARGS quick EXPECTED knight.txt)
lipq_script_test(script.knight-all scripts/knight.lisp ARGS "all|quick" EXPECTED knight-full.txt)
lipq_script_test(script.eight scripts/eight.lisp ARGS "solve|quick" EXPECTED eight.txt)
lipq_script_test(script.eight-sweep scripts/eight.lisp ARGS "sweep|quick" EXPECTED eight-sweep.txt)
lipq_script_test(script.queens-nqueen0 scripts/queens.lisp ARGS nqueen0 EXPECTED queens-nqueen0.txt)
# quick: n = 8..10, the first 6 lines of the seed's n = 8..14 listing
lipq_script_test(script.queens-nqueen1 scripts/queens.lisp ARGS "nqueen1|quick"
                 EXPECTED queens-nqueen1-counts.txt EXPECTED_LINES 6)
lipq_script_test(script.queens-functional scripts/queens.lisp ARGS functional
                 EXPECTED queens-functional.txt)
# the table checks that every method finds nqueen1's count (an error otherwise)
lipq_script_test(script.queens-table scripts/queens.lisp ARGS "table|quick"
                 REQUIRE "all methods agree")
lipq_script_test(script.demo scripts/demo.lisp ARGS quick REQUIRE "demo: all puzzles agree with the seeds")
