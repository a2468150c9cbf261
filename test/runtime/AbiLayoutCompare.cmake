# Runs the AbiLayout program built against the toolkit (TOOLKIT) and against
# respec's headers (RESPEC) and fails when their outputs differ.
execute_process(COMMAND "${TOOLKIT}" OUTPUT_VARIABLE toolkit_out
                RESULT_VARIABLE toolkit_rc)
execute_process(COMMAND "${RESPEC}" OUTPUT_VARIABLE respec_out
                RESULT_VARIABLE respec_rc)
if(NOT toolkit_rc EQUAL 0 OR NOT respec_rc EQUAL 0)
  message(FATAL_ERROR "AbiLayout failed to run")
endif()
if(NOT toolkit_out STREQUAL respec_out)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/abi_toolkit.txt" "${toolkit_out}")
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/abi_respec.txt" "${respec_out}")
  message(FATAL_ERROR "ABI mismatch; see abi_toolkit.txt and abi_respec.txt "
                      "in ${CMAKE_CURRENT_BINARY_DIR}")
endif()
message(STATUS "ABI layouts match")
