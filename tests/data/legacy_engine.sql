-- The mobile engine's own tables (seed 001 §2.1), as a device's vault.db holds them beside
-- `athlete_memory`. Revision 0002 must leave every one of them exactly as it is.
CREATE TABLE IF NOT EXISTS profiles (
    athlete_id TEXT PRIMARY KEY,
    age INTEGER,
    sport TEXT NOT NULL,
    level TEXT,
    weekly_hours REAL,
    ftp INTEGER,
    max_hr INTEGER,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS profile_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    athlete_id TEXT NOT NULL,
    snapshot_json TEXT NOT NULL,
    recorded_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS activities (
    id TEXT PRIMARY KEY,
    athlete_id TEXT NOT NULL,
    sport TEXT NOT NULL,
    started_at TEXT NOT NULL,
    duration_s INTEGER NOT NULL,
    distance_m REAL,
    notes TEXT
);
CREATE INDEX IF NOT EXISTS idx_activities_athlete ON activities (athlete_id, started_at);
CREATE TABLE IF NOT EXISTS biometrics (
    athlete_id TEXT NOT NULL,
    day TEXT NOT NULL,
    readiness REAL,
    hrv REAL,
    sleep_h REAL,
    viterbi_state TEXT,
    raw BLOB,
    PRIMARY KEY (athlete_id, day)
);
CREATE TABLE IF NOT EXISTS viterbi_state (
    athlete_id TEXT PRIMARY KEY,
    state_json TEXT NOT NULL,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TRIGGER IF NOT EXISTS profiles_history AFTER UPDATE ON profiles BEGIN
    INSERT INTO profile_history (athlete_id, snapshot_json) VALUES (NEW.athlete_id, '{}');
END;

INSERT INTO profiles VALUES ('ana', 34, 'run', 'intermediate', 6.5, NULL, 188, '2026-02-16 08:00:00');
INSERT INTO profiles VALUES ('björn', 41, 'bike', 'advanced', 9.0, 265, 179, NULL);
INSERT INTO profile_history (athlete_id, snapshot_json, recorded_at)
    VALUES ('ana', '{"goal":"half marathon","level":"beginner"}', '2026-01-02 09:30:00');
INSERT INTO activities VALUES ('act_1', 'ana', 'run', '2026-02-14T07:05:00Z', 2700, 8012.5,
    'knee felt tight after 6 km | ran anyway');
INSERT INTO activities VALUES ('act_2', 'björn', 'bike', '2026-02-15T17:40:00.123456789Z', 5400, 40210.0, NULL);
INSERT INTO biometrics VALUES ('ana', '2026-02-15', 0.72, 61.5, 7.25, 'recovered', X'00FF10');
INSERT INTO biometrics VALUES ('ana', '2026-02-16', NULL, NULL, 6.0, NULL, NULL);
INSERT INTO viterbi_state VALUES ('ana', '{"posterior":[0.1,0.7,0.2],"state":"productive"}', '2026-02-16 08:00:01');
