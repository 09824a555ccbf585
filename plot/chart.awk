# chart.awk: what fplot's programs share: the quoting of strings for
# gnuplot, number and size formats, axis names, the title's lines and the
# machine the records came from (remember_meta() in each on_header()).
# The one way a string from data reaches gnuplot: single quotes, where
# gnuplot expands neither backquotes nor macros nor escapes, with control
# bytes (a newline would end the command) made blanks.
function gq(s) { gsub(/[\001-\037\177]/, " ", s); gsub(/\047/, "\047\047", s); return "\047" s "\047" }
# Lines of S (from wrap()) as gq pieces joined by a newline string.
function gql(s,   n, i, part, out) {
	n = split(s, part, "\n"); out = "\047\047"
	for (i = 1; i <= n; i++) out = (i == 1 ? "" : out " . \"\\n\" . ") gq(part[i])
	return out
}
function human(b) {
	if (b >= 1073741824 && b % 1073741824 == 0) return b / 1073741824 " GiB"
	if (b >= 1048576 && b % 1048576 == 0) return b / 1048576 " MiB"
	if (b >= 1024 && b % 1024 == 0) return b / 1024 " KiB"
	return b " bytes"
}
function fmtnum(v) {
	if (v == "") return "-"
	if (v != 0 && (v < 0.01 && v > -0.01)) return sprintf("%.2g", v)
	if (v >= 1000 || v <= -1000) return sprintf("%.0f", v)
	return sprintf("%.4g", v)
}
# What a column measures, with its unit, from its name (fsbench(7)).
function axis(m,   b, dir) {
	dir = direction(m) < 0 ? ", lower is better" : direction(m) > 0 ? ", higher is better" : ""
	if (m == "seconds") return "time (s)" dir
	if (m == "iops") return "IOPS (operations/s)" dir
	if (m == "mib_per_s") return "throughput (MiB/s)" dir
	if (m == "cpu_pct") return "CPU (% of one CPU)"
	if (m == "ratio") return "ratio to no load (x)"
	if (m ~ /^dev_(read|write)_mib$/) return "device " (m ~ /read/ ? "reads" : "writes") " during the step (MiB)"
	if (m ~ /^dev_(read|write)_ios$/) return "device " (m ~ /read/ ? "read" : "write") " requests during the step"
	if (m == "dev_busy_pct") return "device busy (% of the time with I/O in flight)"
	if (m == "extents") return "extents in the file (count), fewer is less fragmented"
	if (m == "unwritten_mib") return "unwritten extents (MiB)"
	if (m == "max_extent_mib") return "largest extent (MiB)"
	if (m ~ /^lat_us_/) { b = substr(m, 8); return "latency " b " (" mu "s)" dir }
	if (m ~ /_us_/) { b = m; sub(/_us_.*/, "", b); return b " latency " substr(m, index(m, "_us_") + 4) " (" mu "s)" dir }
	b = m
	if (b ~ /_mib_per_s$/) { sub(/_mib_per_s$/, "", b); gsub(/_/, " ", b); return b " throughput (MiB/s)" dir }
	if (b ~ /_ops_per_s$/) { sub(/_ops_per_s$/, "", b); gsub(/_/, " ", b); return b " (operations/s)" dir }
	if (b ~ /_per_s$/) { sub(/_per_s$/, "", b); gsub(/_/, " ", b); return b " (per second)" dir }
	if (b ~ /_s$/) { sub(/_s$/, "", b); gsub(/_/, " ", b); return b " time (s)" dir }
	if (b ~ /_pct$/) { sub(/_pct$/, "", b); gsub(/_/, " ", b); return b " (%)" }
	if (b == "bytes" || b ~ /_bytes$/) { sub(/_?bytes$/, "", b); gsub(/_/, " ", b); return (b == "" ? "size" : b) " (bytes)" }
	if (b ~ /_mib$/) { sub(/_mib$/, "", b); gsub(/_/, " ", b); return b " (MiB)" }
	return m
}
function remember_meta() {
	if (!("kernel" in first)) {
		if ("kernel" in meta) first["kernel"] = meta["kernel"]
		if ("host" in meta) first["host"] = meta["host"]
		if ("cpus" in meta) first["cpus"] = meta["cpus"]
		if ("cpu_model" in meta) first["cpu_model"] = meta["cpu_model"]
		if ("kernel_debug" in meta) first["kernel_debug"] = meta["kernel_debug"]
	}
	if ("kernel" in meta && meta["kernel"] != first["kernel"]) kernels_differ = 1
}
# Break S into lines of at most twidth characters, at blanks.
function wrap(s,   out, line, n, i, w) {
	n = split(s, w, " "); out = ""; line = ""
	for (i = 1; i <= n; i++) {
		if (line != "" && length(line) + 1 + length(w[i]) > twidth) { out = out line "\n"; line = w[i] }
		else line = line (line == "" ? "" : " ") w[i]
	}
	return out line
}
function subtitle(   s) {
	s = ""
	if ("kernel" in first) s = (kernels_differ ? "several kernels" : first["kernel"])
	if ("kernel_debug" in first && first["kernel_debug"] != "none" && first["kernel_debug"] != "-" && !kernels_differ) s = s " (debug: " first["kernel_debug"] ")"
	if ("host" in first) s = s (s == "" ? "" : ", ") "host " first["host"]
	if ("cpus" in first) s = s (s == "" ? "" : ", ") first["cpus"] (first["cpus"] == 1 ? " CPU" : " CPUs")
	if ("cpu_model" in first && first["cpu_model"] != "-") s = s " (" first["cpu_model"] ")"
	return s
}
