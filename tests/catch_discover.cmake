# Registers every Catch2 test case with CTest (Debian's Catch2 v2 ships Catch.cmake).
find_file(CATCH_CMAKE Catch.cmake PATHS /usr/lib/cmake/Catch2 /usr/share/cmake/Catch2 NO_DEFAULT_PATH)
if(CATCH_CMAKE)
  include(${CATCH_CMAKE})
  catch_discover_tests(trainsim_tests WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
else()
  add_test(NAME trainsim_tests COMMAND trainsim_tests WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endif()
