# report-meta.awk (with reader.awk): the metadata of the first block of
# each label, for the environment: a line per label to FSFILE (-v fsfile=),
# the machine's keys on standard output.
function on_header() { firstrow = 1 }
function on_row(   l, k) {
	if (!firstrow) return
	firstrow = 0
	l = $1
	if (!first) { first = 1; for (k in meta) env[k] = meta[k] }
	if (!(l in seen)) { seen[l] = 1; print l "\t" meta["path"] "\t" meta["fs"] "\t" meta["fs_block_size"] "\t" meta["device"] "\t" meta["mount_options"] "\t" meta["drop"] > fsfile }
}
END {
	if (failed) exit 2
	# ek, not keys: reader.awk's keys holds the "# keys:" line
	split("host kernel kernel_debug cpus cpu_model cpu_governor mem_bytes swap_bytes page_size loadavg", ek, " ")
	for (i = 1; i <= 10; i++) if (ek[i] in env) {
		v = env[ek[i]]
		if (ek[i] ~ /_bytes$/ && v ~ /^[0-9]+$/) v = sprintf("%.1f GiB", v / 1073741824)
		print ek[i] "\t" v
	}
}
