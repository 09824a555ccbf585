# report-mdtable.awk: tab-separated lines as a markdown table; the first NK
# columns (-v nk=) are keys, left-aligned, the rest numbers.
BEGIN { FS = "\t" }
{ line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line }
NR == 1 { line = "|"; for (i = 1; i <= NF; i++) line = line (i <= nk ? " --- |" : " ---: |"); print line }
