#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The small helpers of include/nurseshark/util.h are written once (issue 9):
# no source under src/ or include/ writes again the array length
# (sizeof(a) / sizeof(a[0]): NS_ARRAY_SIZE), the doubling growth of a
# dynamic array (a function that calls realloc() and doubles a size:
# NS_GROW / ns_grow) or a binary search over an array (a "mid = lo + (hi -
# lo) / 2" that a bound follows: ns_lower_bound / ns_lower_bound_u64).
# Their behaviour is tests/unit/test_util.c's. The few bisections that are
# not over an array are listed below with why; each detector is first run
# on a planted copy, so that a detector that finds nothing fails.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin helpers

# Bisections that are not lower bounds over an array, as FILE COUNT WHY.
allowed_bisections="
src/trace/order.c 2 bisections over time (uint64 ns, wider than size_t on 32-bit) and over checkpoints probed by merging the CPUs
src/model/sched.c 1 a bisection over time (uint64 ns) for where a window of the scheduling analysis ends, by the CPUs' event counts
"

# sources FILE...: the C files to look at (util.h itself aside).
sources() {
	(cd "$top" && find src include -name '*.[ch]' ! -path include/nurseshark/util.h | LC_ALL=C sort)
}

# array_size FILE...: FILE:LINE of each sizeof(x) / sizeof(...) or sizeof x / sizeof.
array_size() {
	grep -nE 'sizeof[ (][^;]*\)? */ *sizeof' "$@" /dev/null | cut -d: -f1,2
}

# growth FILE...: FILE:LINE of each function (a body from "{" to "}" in
# column 0) that calls realloc() and doubles something ("* 2", "*= 2",
# "<< 1"): the line of its realloc.
growth() {
	awk 'FNR == 1 { body = 0; at = "" }
	     /^\{/ { body = 1; at = ""; dbl = 0; next }
	     body && /realloc\(/ && at == "" { at = FILENAME ":" FNR }
	     body && /(\* 2[^0-9]|\*= 2|<<= 1|<< 1[^0-9])/ { dbl = 1 }
	     /^\}/ { if (body && at != "" && dbl) print at; body = 0 }' "$@"
}

# bisection FILE...: FILE:LINE of each "mid = X + (Y - X) / 2" that an
# assignment of mid to a bound follows within six lines.
bisection() {
	awk 'FNR == 1 { pending = "" }
	     match($0, /mid = [a-z_]+ \+ \([a-z_]+ - [a-z_]+\) \/ 2/) { pending = FILENAME ":" FNR; left = 6; next }
	     pending != "" && /(lo|hi|a|b) = mid/ { print pending; pending = "" }
	     pending != "" && --left <= 0 { pending = "" }' "$@"
}

# --- the detectors find a planted copy ------------------------------------------

cat >"$tmp/planted.c" <<'EOF'
static int v[4];
#define N (sizeof(v) / sizeof(v[0]))
static int add(int **a, int *nr, int *cap, int x)
{
	if (*nr == *cap) {
		int n = *cap ? *cap * 2 : 8;
		int *p = realloc(*a, n * sizeof(*p));
		*a = p;
		*cap = n;
	}
	(*a)[(*nr)++] = x;
	return 0;
}
static size_t find(const int *v, size_t n, int key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
EOF
found="$(cd "$tmp" && array_size planted.c) $(cd "$tmp" && growth planted.c) $(cd "$tmp" && bisection planted.c)"
if [ "$found" = "planted.c:2 planted.c:7 planted.c:19" ]; then
	pass "the detectors find a planted array length, doubling growth and binary search"
else
	fail "the detectors on a planted copy: want 'planted.c:2 planted.c:7 planted.c:19', got '$found'"
fi

# --- none in the tree -------------------------------------------------------------

mapfile -t files < <(sources)
if [ ${#files[@]} -lt 50 ]; then
	fail "only ${#files[@]} sources found under $top/src and include"
	exit 0
fi
cd "$top" || exit 1

got=$(array_size "${files[@]}" | tr '\n' ' ')
if [ -z "$got" ]; then
	pass "no sizeof(a) / sizeof(a[0]) outside util.h (NS_ARRAY_SIZE)"
else
	fail "sizeof / sizeof written again, use NS_ARRAY_SIZE: $got"
fi

got=$(growth "${files[@]}" | tr '\n' ' ')
if [ -z "$got" ]; then
	pass "no doubling realloc() outside util.h (NS_GROW)"
else
	fail "a doubling growth written again, use NS_GROW or ns_grow: $got"
fi

bad=""
while read -r f n; do
	want=$(awk -v f="$f" '$1 == f { print $2 }' <<<"$allowed_bisections")
	[ "$n" -le "${want:-0}" ] || bad+=" $f ($n, $(bisection "$f" | tr '\n' ' '))"
done < <(bisection "${files[@]}" | cut -d: -f1 | sort | uniq -c | awk '{ print $2, $1 }')
if [ -z "$bad" ]; then
	pass "no binary search over an array outside util.h but the listed ones (ns_lower_bound)"
else
	fail "a binary search written again, use ns_lower_bound or ns_lower_bound_u64:$bad"
fi
exit 0
