"""OpenAI's documented Chat Completions wire format, spoken with plain `requests`, as a Python
integrator without the openai package would: a completion, then the same request streamed."""
import json
import os
import sys

import requests

BASE = os.environ["SD_BASE_URL"]
HEADERS = {"Authorization": f"Bearer {os.environ['SD_API_KEY']}", "Content-Type": "application/json"}
BODY = {
    "model": "smart-decision",
    "messages": [{"role": "user", "content": sys.argv[1]}],
    "response_format": {
        "type": "json_schema",
        "json_schema": {
            "name": "decision",
            "strict": True,
            "schema": {
                "type": "object",
                "properties": {"answer": {"type": "string", "enum": ["Ship", "Wait"]}},
                "required": ["answer"],
                "additionalProperties": False,
            },
        },
    },
}

completion = requests.post(f"{BASE}/chat/completions", headers=HEADERS, json=BODY, timeout=30)
completion.raise_for_status()
body = completion.json()
assert body["object"] == "chat.completion", body
print("answer", json.loads(body["choices"][0]["message"]["content"])["answer"])
print("usage", body["usage"]["total_tokens"])

votes, content = [], ""
with requests.post(f"{BASE}/chat/completions", headers=HEADERS, json={**BODY, "stream": True}, stream=True, timeout=30) as stream:
    stream.raise_for_status()
    assert stream.headers["content-type"].startswith("text/event-stream"), stream.headers
    for line in stream.iter_lines(decode_unicode=True):
        if not line.startswith("data: "):
            continue
        data = line[len("data: "):]
        if data == "[DONE]":
            print("done")
            break
        chunk = json.loads(data)
        assert chunk["object"] == "chat.completion.chunk", chunk
        vote = (chunk.get("smart_decision") or {}).get("vote")
        if vote:
            votes.append(vote["llm_name"])
        for choice in chunk["choices"]:
            content += choice["delta"].get("content") or ""
print("streamed votes", ",".join(sorted(votes)))
print("streamed answer", json.loads(content)["answer"])

refused = requests.post(f"{BASE}/chat/completions", headers={**HEADERS, "Authorization": "Bearer sd_live_wrong"}, json=BODY, timeout=30)
print("refused", refused.status_code, refused.json()["error"]["code"])
