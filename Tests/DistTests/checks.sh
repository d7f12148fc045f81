# Sourced by test_tarball.sh and test_debs.sh: what a user of an installed
# libpathconfig does, whichever way it was installed. Each check prints what
# it checked and fails (exit 1) with the reason.
#
#   check_c_host BUILD_DIR [VAR=VALUE...]
#       builds examples/c with `pkg-config --cflags --libs pathconfig` and runs
#       it, the environment given (PKG_CONFIG_PATH, LD_LIBRARY_PATH) added to a
#       bare one; its results must be the command's (PATHCONFIG)
#   check_command       PATHCONFIG runs with a bare environment: --version, resolve
#   check_manual FILE   the manual (plain or .gz) documents every subcommand of --help
#   check_completions BASH ZSH FISH   each loads or declares pathconfig, with every subcommand
#   check_schema FILE   the installed JSON Schema is what PATHCONFIG schema prints
#
# Needs REPO (the clone), VERSION and PATHCONFIG (the installed command).

EXAMPLE_CONFIG=examples/path-configuration.json
EXAMPLE_INPUTS=(/messages/new https://example.com/messages/42 /nowhere)
BARE_PATH=/usr/bin:/bin

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The subcommands `pathconfig --help` lists, one per line.
subcommands() {
    env -i PATH=$BARE_PATH "$PATHCONFIG" --help |
        sed -n '/^SUBCOMMANDS:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p'
}

check_command() {
    local got
    got=$(env -i PATH=$BARE_PATH "$PATHCONFIG" --version) || fail "$PATHCONFIG --version failed"
    [ "$got" = "$VERSION" ] || fail "$PATHCONFIG --version printed '$got', not $VERSION"
    got=$(cd "$REPO" && env -i PATH=$BARE_PATH "$PATHCONFIG" resolve --config "$EXAMPLE_CONFIG" /messages/new) ||
        fail "$PATHCONFIG resolve failed"
    case $got in
        *'"context":"modal"'*) ;;
        *) fail "$PATHCONFIG resolve /messages/new printed '$got', not the modal context of $EXAMPLE_CONFIG" ;;
    esac
    echo "ok: $PATHCONFIG --version is $VERSION and it resolves"
}

check_c_host() {
    local build=$1 expected got
    shift
    env -i PATH=$BARE_PATH "$@" make -C "$REPO/examples/c" --no-print-directory BUILD="$build" >/dev/null ||
        fail "examples/c did not build through pkg-config ($*)"
    got=$(cd "$REPO" && env -i PATH=$BARE_PATH "$@" "$build/host" "$EXAMPLE_CONFIG" "${EXAMPLE_INPUTS[@]}") ||
        fail "examples/c's host failed ($*)"
    # Its JSON lines (indented, an object) are the command's answers for the same inputs.
    expected=$(cd "$REPO" && env -i PATH=$BARE_PATH "$PATHCONFIG" resolve --config "$EXAMPLE_CONFIG" "${EXAMPLE_INPUTS[@]}" |
        sed 's/^/  /')
    [ "$(grep '^  {' <<<"$got")" = "$expected" ] ||
        fail "examples/c's host printed"$'\n'"$got"$'\n'"where pathconfig resolve gives"$'\n'"$expected"
    grep -qx 'context=modal presentation=default pull_to_refresh=0 url=/messages/new' <<<"$got" ||
        fail "examples/c's host did not read /messages/new as a modal: $got"
    echo "ok: examples/c built with pkg-config and ran (${*:-system pkg-config and linker})"
}

check_manual() {
    local file=$1 text name
    [ -f "$file" ] || fail "no manual at $file"
    case $file in
        *.gz) text=$(zcat "$file") ;;
        *) text=$(cat "$file") ;;
    esac
    grep -qx '.Dt PATHCONFIG 1' <<<"$text" || fail "$file is not the manual of pathconfig(1)"
    for name in $(subcommands); do
        grep -qx ".It Em $name" <<<"$text" || fail "$file does not document the subcommand $name"
    done
    echo "ok: $file documents $(subcommands | wc -l) subcommands"
}

check_completions() {
    local bash_file=$1 zsh_file=$2 fish_file=$3 name
    env -i PATH=$BARE_PATH bash -c '. "$1" && complete -p pathconfig' _ "$bash_file" >/dev/null ||
        fail "$bash_file does not register a bash completion for pathconfig"
    [ "$(head -n1 "$zsh_file")" = "#compdef pathconfig" ] || fail "$zsh_file is not a zsh completion for pathconfig"
    grep -q "^complete -c 'pathconfig' " "$fish_file" || fail "$fish_file is not a fish completion for pathconfig"
    for name in $(subcommands); do
        grep -qw -- "$name" "$bash_file" || fail "$bash_file does not complete $name"
        grep -qw -- "$name" "$zsh_file" || fail "$zsh_file does not complete $name"
        grep -qw -- "$name" "$fish_file" || fail "$fish_file does not complete $name"
    done
    echo "ok: bash, zsh and fish completions for pathconfig"
}

check_schema() {
    local file=$1
    [ -f "$file" ] || fail "no JSON Schema at $file"
    env -i PATH=$BARE_PATH "$PATHCONFIG" schema | cmp -s - "$file" || fail "$file is not what $PATHCONFIG schema prints"
    echo "ok: $file is the JSON Schema $PATHCONFIG schema prints"
}
