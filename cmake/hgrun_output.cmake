# SPDX-License-Identifier: GPL-2.0-or-later
# Writes what `HGRUN ARGS...` prints into OUT (a man page, a completion
# script): cmake -DHGRUN=... -DARGS=help,--man -DOUT=... -P hgrun_output.cmake
string(REPLACE "," ";" ARGS "${ARGS}")
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${EMULATOR} ${HGRUN} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${HGRUN} ${ARGS} exited ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
