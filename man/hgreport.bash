# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for hgreport, made by python3 -m hgreport.manpage bash from its command line;
# installed as PREFIX/share/bash-completion/completions/hgreport
# shellcheck disable=SC2207
_hgreport_commands='report rta sweep cache-penalty hourglass-table2 table2 compare kernels abeni-table1 table1 hourglass-table1 dispatch abeni-table2 abeni-cdf interactivation slices switches provenance series export'
_hgreport_opts_report='--help --output --thresholds --window -h -o'
_hgreport_opts_rta='--blocking --exec --help --jitter --json -h'
_hgreport_opts_sweep='--by-host --help --metric --output -h -o'
_hgreport_opts_cache_penalty='--help --many --one --output -h -o'
_hgreport_opts_hourglass_table2='--help --json -h'
_hgreport_opts_table2='--help --json -h'
_hgreport_opts_compare='--by-cpu --by-host --fail-if --help --json --name --output --seed --significant-only -h -o'
_hgreport_opts_kernels='--help --json --name --output --thresholds -h -o'
_hgreport_opts_abeni_table1='--help --json -h'
_hgreport_opts_table1='--help --json -h'
_hgreport_opts_hourglass_table1='--help --json --thresholds -h'
_hgreport_opts_dispatch='--help --json --thresholds -h'
_hgreport_opts_abeni_table2='--help --json -h'
_hgreport_opts_abeni_cdf='--at --help --json --output --window -h -o'
_hgreport_opts_interactivation='--help --json -h'
_hgreport_opts_slices='--help --json --max-gap -h'
_hgreport_opts_switches='--help --json -h'
_hgreport_opts_provenance='--help --json -h'
_hgreport_opts_series='--help --output -h -o'
_hgreport_opts_export='--buckets --format --help --origin --output --url-base -h -o'
_hgreport() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd='' i
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ " $_hgreport_commands " == *" ${COMP_WORDS[i]} "* ]] && { cmd=${COMP_WORDS[i]}; break; }
	done
	case $prev in
	--format) COMPREPLY=($(compgen -W 'jsonl cyclictest hourglass' -- "$cur")); return ;;
	--metric) COMPREPLY=($(compgen -W "$(hgrun list metrics --json 2>/dev/null | grep -o '"name": *"[a-z0-9_]*"' | cut -d'"' -f4)" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		local v=_hgreport_opts_${cmd:-report}
		v=${v//-/_}
		COMPREPLY=($(compgen -W "${!v} --help" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
		[[ -z $cmd ]] && COMPREPLY+=($(compgen -W "$_hgreport_commands" -- "$cur"))
	fi
}
complete -o filenames -F _hgreport hgreport
