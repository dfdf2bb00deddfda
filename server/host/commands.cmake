# Typed commands and the JSON the server sends (included by the top CMakeLists.txt): the scene
# list and parameter JSON go into the engine library, which the fluidcast program also uses.
target_sources(fluidcast_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../core/scene_list.c
  ${CMAKE_CURRENT_LIST_DIR}/../core/params_json.c)

add_library(fluidcast_commands STATIC
  ${CMAKE_CURRENT_LIST_DIR}/command_read.c
  ${CMAKE_CURRENT_LIST_DIR}/command_apply.c
  ${CMAKE_CURRENT_LIST_DIR}/world_json.c)
target_include_directories(fluidcast_commands PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(fluidcast_commands PUBLIC fluidcast_core fluidcast_protocol PkgConfig::CJSON)
