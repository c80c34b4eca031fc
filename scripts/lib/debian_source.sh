# Debian source packages fetched through a private apt configuration (sourced, never
# run): a deb-src line of one suite under a directory of the cache, so that the
# system's apt setup is left as it is. The mirror is the one the machine's own apt
# sources name (or ULID_TSID_DEBIAN_MIRROR): no mirror host is written here.
#   debian_mirror                        prints the mirror, or fails with one line on stderr
#   debian_source_download PACKAGE SUITE APT_DIR DEST
#                                        `apt-get source --download-only PACKAGE` of SUITE
#                                        into DEST (emptied first), its log APT_DIR/apt.log;
#                                        fails with one line on stderr

debian_mirror() {
  local mirror="${ULID_TSID_DEBIAN_MIRROR:-}"
  [ -n "$mirror" ] || mirror="$(sed -n 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)"
  [ -n "$mirror" ] || mirror="$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)"
  [ -n "$mirror" ] || { echo "no Debian mirror in the machine's apt sources (set ULID_TSID_DEBIAN_MIRROR)" >&2; return 1; }
  echo "$mirror"
}

debian_source_download() {
  local package="$1" suite="$2" apt_dir="$3" dest="$4" mirror keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  mirror="$(debian_mirror)" || return 1
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" || return 1
  echo "deb-src $([ -f $keyring ] && echo "[signed-by=$keyring] ")$mirror $suite main" >"$apt_dir/sources.list"
  local opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "Acquire::Check-Valid-Until=false"
    -o "Acquire::Languages=none" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
  local log="$apt_dir/apt.log"
  apt-get "${opts[@]}" update >"$log" 2>&1 ||
    { echo "cannot read Debian's $suite index from $mirror ($(grep -m1 '^E:' "$log" || tail -n1 "$log"))" >&2; return 1; }
  rm -rf "$dest"; mkdir -p "$dest"
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dest"; fi
  (cd "$dest" && apt-get "${opts[@]}" source --download-only "$package" >>"$log" 2>&1) ||
    { echo "apt-get source $package: $(grep -m1 '^E:' "$log" || tail -n1 "$log")" >&2; return 1; }
}
