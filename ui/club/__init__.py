"""Club mode: tables publish to an MQTT broker (Mosquitto); a league service keeps the results.

``contract``: the topics and payloads both sides speak (docs/club.md).
"""
