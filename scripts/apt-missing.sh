# Sourced by install-deps.sh and install-bench-deps.sh: the one way this
# project installs Debian packages.
#
#   install_missing "what they are for" PACKAGE...
#
# installs the packages dpkg does not list as installed, with apt-get when
# running as root; otherwise says what to install and exits 1.
install_missing() {
    local purpose=$1
    shift
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "missing packages${purpose:+ $purpose}: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
    echo "installing${purpose:+ $purpose}: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
