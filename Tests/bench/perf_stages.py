#!/usr/bin/env python3
"""Samples of a `perf record --call-graph fp` profile of a build, by index stage.

Usage: perf script -i FILE.perf -F ip,sym --no-demangle > FILE.txt
       python3 Tests/bench/perf_stages.py FILE.txt RECORDS [STAGE]

Each sample goes to the innermost frame that names a stage (mangled names);
counts are also given a million records, which at one sampling rate is user
CPU a record. With STAGE, that stage's commonest leaf functions (pipe through
`swift demangle --simplified`). docs/scale.md, "The seventh session".
"""
import sys, collections, re
stages = [("postings.cut", "13PostingsStageV3cut"), ("postings.parts", "13PostingsStageV5parts"),
          ("postings.mentions", "13PostingsStageV12markMentions"), ("postings", "13PostingsStage"),
          ("lead", "13LeadDocuments"), ("termshards.tops", "14TermShardStageV4tops"),
          ("termshards.planned", "14TermShardStageV11plannedSize"), ("termshards.bytes", "14TermShardStageV10shardBytes"),
          ("termshards", "14TermShardStage|13PrefixSharder|12ShardListing"), ("typo", "14TypoShardStage"),
          ("docshards", "18DocumentShardStage|12DocumentRows"), ("filters", "11FilterStage"),
          ("valuekeys", "13ValueKeyStage"), ("trending", "13TrendingCheck"), ("manifest", "13ManifestStage|9WordForms.*endings"),
          ("rank", "12IndexBuilderV15rankedDocuments"), ("build.rest", "12IndexBuilderV5build"),
          ("browse", "11BrowsePages"), ("render", "12PageRenderer|10RenderPlan|16CompiledRenderer"),
          ("prepare", "15DocumentBuilder|18ExpressionCompiler"), ("load", "13DatasetLoader|9CSVSource|12TableBuilder")]
pats = [(n, re.compile(p)) for n, p in stages]
n = int(sys.argv[2]); want = sys.argv[3] if len(sys.argv) > 3 else None
tally = collections.Counter(); leaves = collections.Counter(); total = 0; stack = []
def flush():
    global total
    if not stack: return
    total += 1
    name = "other"
    for f in stack:
        m = next((s for s, p in pats if p.search(f)), None)
        if m: name = m; break
    tally[name] += 1
    if want and name == want: leaves[stack[0]] += 1
for line in open(sys.argv[1]):
    if not line.strip():
        flush(); stack = []; continue
    parts = line.split(None, 1)
    if len(parts) == 2: stack.append(parts[1].strip().rsplit(" (", 1)[0])
flush()
print(f"{total} samples, {total*1e6/n:.0f} a million records")
for k, v in tally.most_common(): print(f"{k:22s} {v:7d} {100*v/total:5.1f}% {v*1e6/n:8.0f}/M")
if want:
    s = sum(leaves.values())
    for k, v in leaves.most_common(25): print(f"{100*v/s:5.1f}% {v*1e6/n:7.0f}/M {k[:150]}")
