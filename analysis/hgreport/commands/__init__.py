# SPDX-License-Identifier: GPL-2.0-or-later
"""The commands of hgreport, one module each (commands/command.py: the contract; cli.py lists them in
COMMANDS): argument parsing and what each command writes and prints. Imports every layer below."""
