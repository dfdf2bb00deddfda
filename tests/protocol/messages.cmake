# Control-message tests: the C validator against every schema example and the transport limits
# (test_messages), and the same examples against Python's jsonschema (test_schema_examples).
# test_schema_examples also compares the two validators on random mutations of the valid examples.
add_executable(test_messages ${CMAKE_CURRENT_SOURCE_DIR}/test_messages.c)
target_link_libraries(test_messages PRIVATE fluidcast_protocol)
target_include_directories(test_messages PRIVATE ${PROJECT_SOURCE_DIR}/tests)
add_test(NAME test_messages COMMAND test_messages ${PROJECT_SOURCE_DIR}/protocol/schema/examples)

# Debian's python3-jsonschema (scripts/setup.sh installs it); /usr/bin/python3, not a pyenv one.
add_test(NAME test_schema_examples
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_schema_examples.py ${PROJECT_SOURCE_DIR}/protocol/schema
          $<TARGET_FILE:test_messages>)
set_tests_properties(test_messages test_schema_examples PROPERTIES LABELS unit)
