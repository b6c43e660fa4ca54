//! A small argument reader: positional arguments and `--name value` / `--name=value` / `-o value`
//! options, repeated options kept in order. Which options take a value is declared by the caller
//! through [`Args::value`]/[`Args::values`]: any `--name` followed by a non-option word is taken
//! as `--name word` unless the name is a known switch (see `SWITCHES`).

/// Options that never take a value.
const SWITCHES: &[&str] = &[
    "asm",
    "layout",
    "help",
    "json",
    "lanes",
    "trace",
    "legacy",
    "quiet",
    "no-validate",
    "warnings-as-errors",
];

#[derive(Debug, Default, Clone)]
pub struct Args {
    pub positional: Vec<String>,
    /// (name without dashes, value) in order; switches have an empty value.
    pub options: Vec<(String, String)>,
}

impl Args {
    pub fn parse(raw: &[String]) -> Result<Args, String> {
        let mut a = Args::default();
        let mut i = 0;
        while i < raw.len() {
            let w = &raw[i];
            if w == "-" || !w.starts_with('-') || w.len() == 1 {
                a.positional.push(w.clone());
            } else if w == "--" {
                a.positional.extend(raw[i + 1..].iter().cloned());
                break;
            } else {
                let body = w.trim_start_matches('-');
                if let Some((k, v)) = body.split_once('=') {
                    a.options.push((k.to_string(), v.to_string()));
                } else if SWITCHES.contains(&body) || body == "h" {
                    a.options.push((body.to_string(), String::new()));
                } else if i + 1 < raw.len() {
                    a.options.push((body.to_string(), raw[i + 1].clone()));
                    i += 1;
                } else {
                    return Err(format!("option '{}' needs a value", w));
                }
            }
            i += 1;
        }
        Ok(a)
    }
    /// The last value given for an option.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
    /// Every value given for a repeatable option, in order.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.options.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect()
    }
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(k, _)| k == name)
    }
    /// Options not in `known`: reported as usage errors by subcommands.
    pub fn unknown(&self, known: &[&str]) -> Option<&str> {
        self.options.iter().map(|(k, _)| k.as_str()).find(|k| !known.contains(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_options_and_positionals() {
        let raw: Vec<String> =
            ["fs.tgsi", "--size", "64x64", "--const=0:1=1,2,3,4", "--asm", "-o", "out.png"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let a = Args::parse(&raw).unwrap();
        assert_eq!(a.positional, vec!["fs.tgsi"]);
        assert_eq!(a.value("size"), Some("64x64"));
        assert_eq!(a.value("const"), Some("0:1=1,2,3,4"));
        assert!(a.flag("asm"));
        assert_eq!(a.value("o"), Some("out.png"));
    }
}
