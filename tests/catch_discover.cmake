# Registers every Catch2 test case as its own CTest entry, whatever characters its name holds.
# Debian's Catch.cmake splits a name at ';' (a CMake list separator), so a test named "a; b" became
# two entries that matched nothing and passed without running (issue 12). Here the names are listed
# after each build by tests/catch_register.cmake, which keeps ';' inside one bracket argument and
# escapes the characters Catch2's test-spec parser treats specially; each entry also passes
# `--warn NoTests`, so an entry whose spec matches no test case fails instead of passing.
set(TRAINSIM_CTEST_FILE ${CMAKE_BINARY_DIR}/trainsim_tests_registered.cmake)
add_custom_command(TARGET trainsim_tests POST_BUILD
  COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:trainsim_tests>
          -D TEST_WORKING_DIR=${CMAKE_SOURCE_DIR} -D CTEST_FILE=${TRAINSIM_CTEST_FILE}
          -P ${CMAKE_SOURCE_DIR}/tests/catch_register.cmake
  BYPRODUCTS ${TRAINSIM_CTEST_FILE}
  VERBATIM)
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${TRAINSIM_CTEST_FILE})
