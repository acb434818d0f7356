"""The wire: event and command models, their JSON codec, the topic tree and the buses; and, at its
bottom, :mod:`channel.vocab`, the shared vocabulary every layer imports.

Imports nothing else of scopewatch's.

- :mod:`channel.event_base` — what every event carries (session, seq, timestamp, actor); a newer writer's kind;
- :mod:`channel.event_history` — the event fields older recordings lack (the others are refused when missing);
- :mod:`channel.events` — every fact a session produces, as one pydantic discriminated union;
- :mod:`channel.sandbox_events` — the sandbox's observations of what programs did (part of that union);
- :mod:`channel.seat_events` — events of forks and of people in agents' seats (part of that union);
- :mod:`channel.acp_events` — ACP agents' plans, tool calls and permission requests (part of that union);
- :mod:`channel.branch_events` — branch episodes' merge requests, approvals, merges, refused pushes (in that union);
- :mod:`channel.class_events` — events of a class: a lesson's prompts, a room's presence and votes (in that union);
- :mod:`channel.shapes` — a session's teams and active agents, and a failing test, as events carry them;
- :mod:`channel.vocab` — the shared vocabularies: each word events, scenarios and the engine use, once;
- :mod:`channel.commands` — commands: requests sent to a running session, checked whole when decoded;
- :mod:`channel.rejects` — command payloads that failed the command models, reported to the engine;
- :mod:`channel.ratelimit` — token buckets per key (commands per sender, history requests per client);
- :mod:`channel.credentials` — per-role and per-participant tokens, signed commands, replay nonces;
- :mod:`channel.inbound` — what an MQTT bus drops or refuses before readers see it, and its subscriptions;
- :mod:`channel.signing` — the engine signs what it publishes (Ed25519, a key per session), readers check it;
- :mod:`channel.codec` — the one adapter between messages and JSON, for the bus and recordings;
- :mod:`channel.text` — the one escaping scheme: bytes that are not UTF-8 in events, control characters on screen;
- :mod:`channel.topics` — the topic tree, a public versioned interface;
- :mod:`channel.bus` — the Bus protocol: publish, subscribe by topic pattern, close;
- :mod:`channel.memory` — the in-process bus: a bounded queue per subscriber, ordered, no silent drop;
- :mod:`channel.mqtt` — the Bus protocol over an MQTT broker (aiomqtt);
- :mod:`channel.replay` — the replay protocol: how a late joiner gets the events it missed;
- :mod:`channel.broker` — where the broker is, its connection error, and one look at what it retains;
- :mod:`channel.discovery` — which sessions are live: the engines' presence, believed only when signed;
- :mod:`channel.liveness` — whether a viewer's engine is there: its Last Will told apart from a broker outage;
- :mod:`channel.connect` — the bus a ``--bus`` URL names;
- :mod:`channel.outbox` — publishing off the engine's path: in order, a window of acks, bounded, shed counted;
- :mod:`channel.exposure` — whether anonymous clients may publish on a session's command topics;
- :mod:`channel.emitter` — the one place events are stamped, recorded and published;
- :mod:`channel.recorder` — recordings: events appended to JSONL as they happen, read back;
- :mod:`channel.recording_files` — a recording's bytes: plain, or compressed (.jsonl.gz, .jsonl.zst), read alike;
- :mod:`channel.recording_index` — byte offsets beside a recording: event N without reading those before it;
- :mod:`channel.tasks` — ending the tasks a coroutine started without dropping its own cancellation (a Ctrl-C);
- :mod:`channel.errors` — the root of scopewatch's user-facing errors (one line each).
"""
