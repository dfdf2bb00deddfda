# Frame codec tests: round trip, test vectors (protocol/vectors), hostile input.
function(fc_codec_test name)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c)
  target_link_libraries(${name} PRIVATE fluidcast_protocol m)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${name} COMMAND ${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS unit)
endfunction()

fc_codec_test(test_codec_roundtrip)
fc_codec_test(test_codec_vectors ${PROJECT_SOURCE_DIR}/protocol/vectors)
fc_codec_test(test_codec_hostile)
