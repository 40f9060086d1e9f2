#!/usr/bin/env bash
# An export as a shell script would do it: curl for each page, jq for its items and for
# the next cursor. Usage: curl-jq.sh <base-url> <limit> <page-size>   (key from PEP_API_KEY)
set -euo pipefail
base=$1
limit=$2
page=$3
cursor=""
got=0
while [ "$got" -lt "$limit" ]; do
  args=(-sS --fail -G -H "Authorization: Bearer ${PEP_API_KEY}" --data-urlencode "limit=${page}")
  if [ -n "$cursor" ]; then args+=(--data-urlencode "cursor=${cursor}"); fi
  body=$(curl "${args[@]}" "${base}/studies")
  printf '%s' "$body" | jq -c '.data[]'
  cursor=$(printf '%s' "$body" | jq -r 'if .pagination.has_more then .pagination.next_cursor else empty end')
  got=$((got + page))
  if [ -z "$cursor" ]; then break; fi
done
