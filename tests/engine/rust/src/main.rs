//! Usage: engine-memory-check DB ensure | read ATHLETE | block ATHLETE | write ATHLETE < json
//!        | learn ATHLETE FACT < json (the memory the engine holds, plus FACT learned now)
//! Everything between the "verbatim" markers is copied from the engine's integration guide.
use rusqlite::{params, Connection};
use serde::{Deserialize, Serialize};
use std::io::Read;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

// ---- verbatim: Step 1 ----
use chrono::{DateTime, Utc};

/// Persistent coaching memory — facts learned from past Josi conversations.
/// Compact enough to include in every LLM prompt (~174 tokens max).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AthleteMemory {
    /// Key facts: "prefers morning runs", "has knee issue", "works night shifts"
    /// Hard cap: 15 facts.
    pub key_facts: Vec<MemoryFact>,
    /// Recurring patterns: "skips Mondays frequently", "ramps too fast after rest"
    /// Hard cap: 5 patterns.
    pub patterns: Vec<String>,
    /// Coaching notes: "responds well to data-driven framing"
    /// Hard cap: 5 notes.
    pub coaching_notes: Vec<String>,
    /// Last updated timestamp
    pub updated_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MemoryFact {
    pub fact: String,
    /// How this fact was learned: "conversation", "behavior", "profile_change"
    pub source: String,
    /// Confidence 0.0-1.0. Higher = more reliable.
    pub confidence: f64,
    /// When this fact was first learned
    pub learned_at: DateTime<Utc>,
}
// ---- end verbatim ----

pub struct EnrichedContext {
    pub athlete_memory: Option<AthleteMemory>,
}

pub struct VaultSyncService {
    path: String,
}

impl VaultSyncService {
    fn conn(&self) -> Result<Connection> {
        let conn = Connection::open(&self.path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(conn)
    }

    pub fn ensure_tables(&self) -> Result<()> {
        let conn = self.conn()?;
        // ---- verbatim: Step 2, the table ----
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS athlete_memory (
    athlete_id TEXT PRIMARY KEY,
    memory_json TEXT NOT NULL,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);",
        )?;
        Ok(())
    }

    // ---- verbatim: Step 2, write_memory / read_memory ----
    pub fn write_memory(&self, athlete_id: &str, memory: &AthleteMemory) -> Result<()> {
        let json = serde_json::to_string(memory)?;
        let conn = self.conn()?;
        conn.execute(
            "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at)
         VALUES (?1, ?2, CURRENT_TIMESTAMP)",
            params![athlete_id, json],
        )?;
        Ok(())
    }

    pub fn read_memory(&self, athlete_id: &str) -> Result<Option<AthleteMemory>> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT memory_json FROM athlete_memory WHERE athlete_id = ?1"
        )?;
        let result = stmt.query_row(params![athlete_id], |row| {
            let json: String = row.get(0)?;
            Ok(json)
        });
        match result {
            Ok(json) => Ok(Some(serde_json::from_str(&json)?)),
            Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
    // ---- end verbatim ----
}

fn build_memory_section(context: &EnrichedContext) -> String {
    let mut prompt = String::new();
    // ---- verbatim: Step 5 ----
    if let Some(ref mem) = context.athlete_memory {
        let mut memory_lines = Vec::new();

        // Key facts (confidence >= 0.5 only)
        let facts: Vec<&str> = mem.key_facts.iter()
            .filter(|f| f.confidence >= 0.5)
            .map(|f| f.fact.as_str())
            .collect();
        if !facts.is_empty() {
            memory_lines.push(format!("- Facts: {}", facts.join(" | ")));
        }

        // Patterns
        if !mem.patterns.is_empty() {
            memory_lines.push(format!("- Patterns: {}", mem.patterns.join(" | ")));
        }

        // Coaching notes
        if !mem.coaching_notes.is_empty() {
            memory_lines.push(format!("- Notes: {}", mem.coaching_notes.join(" | ")));
        }

        if !memory_lines.is_empty() {
            prompt.push_str("\nMEMORY:\n");
            for line in &memory_lines {
                prompt.push_str(line);
                prompt.push('\n');
            }
        }
    }
    // ---- end verbatim ----
    prompt
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let vault = VaultSyncService { path: args[1].clone() };
    match args[2].as_str() {
        "ensure" => vault.ensure_tables()?,
        "read" => {
            let memory = vault.read_memory(&args[3])?;
            println!("{}", serde_json::to_string(&memory)?);
        }
        "block" => {
            let context = EnrichedContext { athlete_memory: vault.read_memory(&args[3])? };
            print!("{}", build_memory_section(&context));
        }
        "write" => {
            let mut input = String::new();
            std::io::stdin().read_to_string(&mut input)?;
            let memory: AthleteMemory = serde_json::from_str(&input)?;
            vault.write_memory(&args[3], &memory)?;
        }
        "learn" => {
            // Step 6's hook, reduced to what the erasure rule needs: the memory the engine
            // holds (read before, maybe stale) gains a fact stamped when the engine learned it
            let mut input = String::new();
            std::io::stdin().read_to_string(&mut input)?;
            let mut memory: AthleteMemory = serde_json::from_str(&input)?;
            memory.key_facts.push(MemoryFact {
                fact: args[4].clone(),
                source: "conversation".to_string(),
                confidence: 0.8,
                learned_at: Utc::now(),
            });
            vault.write_memory(&args[3], &memory)?;
        }
        other => return Err(format!("unknown command {other}").into()),
    }
    Ok(())
}
