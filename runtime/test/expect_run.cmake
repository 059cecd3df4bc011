# Run an MPI job and check its exit status and output.
#   -DCMD=<command with | separating arguments>
#   -DEXPECT=nonzero|zero   required exit status class
#   -DREGEX=<regex>         must match stdout+stderr
#   -DTIMEOUT=<seconds>     the job must end within this time (default 50)
string(REPLACE "|" ";" cmd "${CMD}")
if(NOT TIMEOUT)
  set(TIMEOUT 50)
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT ${TIMEOUT})
set(all "${out}${err}")
message("${all}")
message("exit status: ${rc}")
if(EXPECT STREQUAL "nonzero" AND (rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$"))
  message(FATAL_ERROR "expected a non-zero exit status, got '${rc}'")
endif()
if(EXPECT STREQUAL "zero" AND NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got '${rc}'")
endif()
if(NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match the expected diagnostic:\n  ${REGEX}")
endif()
if(all MATCHES "ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:")
  message(FATAL_ERROR "sanitizer report in the output")
endif()
