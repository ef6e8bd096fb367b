"""Gradescope's results.json, as its autograder specification documents it
(https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format"), as a JSON
schema: what test_gradescope.py checks every results.json against."""

VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "html", "simple_format", "md", "ansi"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "score": {"type": "number"},
                "max_score": {"type": "number"},
                "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string"},
                "name_format": FORMAT,
                "number": {"type": "string"},
                "output": {"type": "string"},
                "output_format": FORMAT,
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": VISIBILITY,
                "extra_data": {"type": "object"},
            },
            "additionalProperties": False,
        }},
        "leaderboard": {"type": "array"},
    },
    "additionalProperties": False,
    "anyOf": [{"required": ["score"]}, {"required": ["tests"]}],
}
