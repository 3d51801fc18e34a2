# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-compiling hgrun for 64-bit Arm Linux with Debian's cross compiler
# (gcc-aarch64-linux-gnu) against Debian's arm64 multiarch packages
# (libyaml-dev:arm64, libcyaml-dev:arm64, libjansson-dev:arm64).  Tests run
# under qemu-user: ctest starts each test through CMAKE_CROSSCOMPILING_EMULATOR.
# scripts/arm64.sh uses it; docs/arm64.md says what emulation can show.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(HG_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${HG_CROSS_TRIPLE}-gcc)

# The arm64 packages' .pc files live in /usr/lib/aarch64-linux-gnu/pkgconfig;
# only those, never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${HG_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE ${HG_CROSS_TRIPLE})

# qemu-user finds the arm64 dynamic loader and libraries under its -L prefix:
# "/" when Debian's libc6:arm64 is installed (the :arm64 -dev packages pull
# it in: /lib/ld-linux-aarch64.so.1, /usr/lib/aarch64-linux-gnu), else the
# cross toolchain's /usr/aarch64-linux-gnu (libc6-arm64-cross).
if(EXISTS /lib/ld-linux-aarch64.so.1)
  set(HG_QEMU_SYSROOT / CACHE PATH "qemu-aarch64 -L prefix")
else()
  set(HG_QEMU_SYSROOT /usr/${HG_CROSS_TRIPLE} CACHE PATH "qemu-aarch64 -L prefix")
endif()
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(HG_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
  if(HG_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${HG_QEMU_AARCH64} -L ${HG_QEMU_SYSROOT})
  endif()
endif()
