"""The one vocabulary of sports a training log and a message name.

`ENDURANCE`: the sports a primary sport can be; `SIDE`: activities consolidation reports as
"also does"; `ACTIVITY_TYPES`: a training log's activity type (Strava's names, lower case) ->
the sport it is.
"""

from __future__ import annotations

ENDURANCE: frozenset[str] = frozenset({"running", "cycling", "swimming", "rowing"})
SIDE: frozenset[str] = frozenset({"strength training", "yoga", "hiking"})

ACTIVITY_TYPES: dict[str, str] = {
    "run": "running",
    "trail run": "running",
    "virtual run": "running",
    "treadmill": "running",
    "ride": "cycling",
    "virtual ride": "cycling",
    "gravel ride": "cycling",
    "mountain bike ride": "cycling",
    "e-bike ride": "cycling",
    "swim": "swimming",
    "rowing": "rowing",
    "row": "rowing",
    "weight training": "strength training",
    "crossfit": "strength training",
    "yoga": "yoga",
    "hike": "hiking",
    "walk": "walking",
}
