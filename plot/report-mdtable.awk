# report-mdtable.awk: tab-separated lines as a markdown table; the first NK
# columns (-v nk=) are keys, left-aligned, the rest numbers.  Each cell is
# escaped with report-md.awk's mdesc (load it first with -f).
BEGIN { FS = "\t" }
{ line = "|"; for (i = 1; i <= NF; i++) line = line " " mdesc($i) " |"; print line }
NR == 1 { line = "|"; for (i = 1; i <= NF; i++) line = line (i <= nk ? " --- |" : " ---: |"); print line }
