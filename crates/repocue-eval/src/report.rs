//! Report (placeholder until the next commit).
#![allow(missing_docs)]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Report {}
