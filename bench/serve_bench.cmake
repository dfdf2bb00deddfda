# Server benchmark (issue 4): the serve_bench client and the bench_serve target; included from the top CMakeLists.txt.
find_package(Threads REQUIRED)
add_executable(serve_bench
  ${PROJECT_SOURCE_DIR}/bench/serve_bench.c
  ${PROJECT_SOURCE_DIR}/tests/server/ws_client.c
  ${PROJECT_SOURCE_DIR}/tests/server/sha1.c)
target_include_directories(serve_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests/server)
target_link_libraries(serve_bench PRIVATE PkgConfig::CJSON ${MATH_LIBRARY} Threads::Threads)

add_custom_target(bench_serve
  COMMAND ${CMAKE_COMMAND} -E env FLUIDCAST_BIN=$<TARGET_FILE:fluidcast> SERVE_BENCH=$<TARGET_FILE:serve_bench>
          bash ${PROJECT_SOURCE_DIR}/bench/run_serve_bench.sh
  DEPENDS fluidcast serve_bench
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  USES_TERMINAL
  COMMENT "Server benchmark: 100k dam break to 0-100 loopback clients, command latency -> bench/RESULTS.md")
