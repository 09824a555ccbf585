# scan.awk (with reader.awk): which tools and what kind of blocks the input
# holds, a line per block.
function on_header() {
	islat = ("t_ns" in col) && ("latency_ns" in col)
	isext = ("logical_bytes" in col) && ("physical_bytes" in col) && ("length_bytes" in col) && ("flags" in col)
	print (tool == "" ? "-" : tool), (islat ? "latlog" : isext ? "extents" : "records")
	seen++
}
function on_row() { }
END { if (failed) exit 2; if (!seen) fail("no fsbench records in the input") }
