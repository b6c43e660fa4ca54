//! The constants of a corpus case's `.json` (`"CONST[b][i]": {"raw": ["0x…", …]}`, or
//! `"CONST[i]"` for buffer 0), bit for bit: shared by the native tests and the browser's
//! (`#[path]`), which render the same cases.

use tgsi::render::options::ConstValue;

pub fn constants_of(json: &serde_json::Value) -> Vec<ConstValue> {
    let mut out = Vec::new();
    let Some(consts) = json.get("consts").and_then(|c| c.as_object()) else { return out };
    for (name, v) in consts {
        // "CONST[b][i]"
        let nums: Vec<u32> = name
            .trim_start_matches("CONST")
            .split(['[', ']'])
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        let (buffer, index) = match nums.as_slice() {
            [b, i] => (*b, *i),
            [i] => (0, *i),
            _ => panic!("unexpected constant name {}", name),
        };
        let raw = v.get("raw").and_then(|r| r.as_array()).expect("raw bits");
        let mut bits = [0u32; 4];
        for (slot, r) in bits.iter_mut().zip(raw) {
            let s = r.as_str().expect("hex string");
            *slot = u32::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex");
        }
        out.push(ConstValue { buffer, index, bits });
    }
    out
}
