//! Reading an options object from JavaScript, field by field: every call of both engines that
//! takes one (`render`, `compute`, `execQuad`, `compareShaders`, `probeFrame`'s watch). A field
//! that is absent, `undefined` or `null` takes its default; a field of the wrong kind is one
//! problem (its name, what it must be, what it was) and also takes its default, so one bad
//! option never hides the others.
//!
//! By hand rather than through serde: serde's derived readers and its error messages (which print
//! floats and quote strings with core's formatting) were a twentieth of the widget's engine.
//! Byte lists are copied in one go from a `Uint8Array` or `Uint8ClampedArray` (a picture's
//! pixels), not element by element.

use js_sys::{Array, ArrayBuffer, Reflect, Uint8Array, Uint8ClampedArray};
use wasm_bindgen::{JsCast, JsValue};

/// Reads `options` with `build`, which takes each field it wants from the [`Fields`]: what it
/// built, and one message per field that could not be read (each then took its default:
/// [`took_default`]). `what` names the fields in the messages ("render option").
pub fn read<T>(
    options: JsValue,
    what: &'static str,
    build: impl FnOnce(&mut Fields<'_>) -> T,
) -> (T, Vec<String>) {
    let mut problems = Vec::new();
    let built = build(&mut Fields::of(options, what, &mut problems));
    (built, problems)
}

/// [`read`] for a call that refuses a request it cannot read whole: the problems, joined.
pub fn read_whole<T>(
    options: JsValue,
    what: &'static str,
    build: impl FnOnce(&mut Fields<'_>) -> T,
) -> Result<T, String> {
    let (built, problems) = read(options, what, build);
    if problems.is_empty() {
        Ok(built)
    } else {
        Err(problems.join("; "))
    }
}

/// A problem of [`read`] as the calls that go on with the default report it (their `R009`).
pub fn took_default(problem: &str) -> String {
    format!("{problem}: it takes its default")
}

/// The largest whole number a JavaScript number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The fields of one options object and the problems found while reading them.
pub struct Fields<'p> {
    object: JsValue,
    /// What the object's fields are called in a problem: "render option", "compute option".
    what: &'static str,
    /// Where the object is in the options: "" at the top, "textures[2]." in a list.
    path: String,
    problems: &'p mut Vec<String>,
}

impl<'p> Fields<'p> {
    /// The fields of `options` (anything but an object or nothing is a problem, and reads as
    /// nothing).
    fn of(options: JsValue, what: &'static str, problems: &'p mut Vec<String>) -> Fields<'p> {
        let object = if options.is_undefined() || options.is_null() || options.is_object() {
            options
        } else {
            problems.push(format!("the {what}s must be an object (they are {})", kind(&options)));
            JsValue::UNDEFINED
        };
        Fields { object, what, path: String::new(), problems }
    }

    /// The field's value, unless it is absent, `undefined` or `null`.
    pub fn raw(&self, key: &str) -> Option<JsValue> {
        if !self.object.is_object() {
            return None;
        }
        let value = Reflect::get(&self.object, &JsValue::from_str(key)).ok()?;
        (!value.is_undefined() && !value.is_null()).then_some(value)
    }

    /// How a problem names field `key`: `the render option "textures[0].unit"`.
    fn name(&self, key: &str) -> String {
        format!("the {} \"{}{key}\"", self.what, self.path)
    }

    fn wrong(&mut self, key: &str, must: &str, value: &JsValue) {
        let message = format!("{} must be {must} (it is {})", self.name(key), kind(value));
        self.problems.push(message);
    }

    /// A field read by `read` (one of this module's item readers, or several nested), or a
    /// problem saying it `must` be something else.
    pub fn get<T>(
        &mut self,
        key: &str,
        must: &str,
        read: impl Fn(&JsValue) -> Option<T>,
    ) -> Option<T> {
        let value = self.raw(key)?;
        let read = read(&value);
        if read.is_none() {
            self.wrong(key, must, &value);
        }
        read
    }

    pub fn u32(&mut self, key: &str) -> Option<u32> {
        self.get(key, "a whole number from 0 to 4294967295", whole::<u32>)
    }

    /// A whole number up to 2^53 - 1, or a BigInt up to 2^64 - 1.
    pub fn u64(&mut self, key: &str) -> Option<u64> {
        self.get(key, "a whole number of at least 0", |v| {
            if v.is_bigint() {
                return u64::try_from(v.clone()).ok();
            }
            whole::<u64>(v)
        })
    }

    pub fn f32(&mut self, key: &str) -> Option<f32> {
        self.get(key, "a number", number_f32)
    }

    pub fn f64(&mut self, key: &str) -> Option<f64> {
        self.get(key, "a number", JsValue::as_f64)
    }

    pub fn bool(&mut self, key: &str) -> Option<bool> {
        self.get(key, "true or false", JsValue::as_bool)
    }

    pub fn string(&mut self, key: &str) -> Option<String> {
        self.get(key, "a string", JsValue::as_string)
    }

    /// A list of strings (a wrong element makes the whole list a problem).
    pub fn strings(&mut self, key: &str) -> Vec<String> {
        self.get(key, "a list of strings", |v| list(v, JsValue::as_string)).unwrap_or_default()
    }

    pub fn f32s<const N: usize>(&mut self, key: &str) -> Option<[f32; N]> {
        self.get(key, &format!("a list of {N} numbers"), |v| array(v, number_f32))
    }

    pub fn u32s<const N: usize>(&mut self, key: &str) -> Option<[u32; N]> {
        let must = format!("a list of {N} whole numbers from 0 to 4294967295");
        self.get(key, &must, |v| array(v, whole::<u32>))
    }

    /// Bytes: a `Uint8Array`, a `Uint8ClampedArray`, an `ArrayBuffer` or a list of whole numbers
    /// from 0 to 255.
    pub fn bytes(&mut self, key: &str) -> Vec<u8> {
        let must = "bytes (a Uint8Array or a list of whole numbers from 0 to 255)";
        self.get(key, must, |v| {
            if let Some(a) = v.dyn_ref::<Uint8Array>() {
                Some(a.to_vec())
            } else if let Some(a) = v.dyn_ref::<Uint8ClampedArray>() {
                Some(a.to_vec())
            } else if let Some(b) = v.dyn_ref::<ArrayBuffer>() {
                Some(Uint8Array::new(b).to_vec())
            } else {
                list(v, whole::<u8>)
            }
        })
        .unwrap_or_default()
    }

    /// The problem that a field the call cannot do without is absent.
    pub fn missing(&mut self, key: &str, must: &str) {
        let message = format!("{} is missing (it must be {must})", self.name(key));
        self.problems.push(message);
    }

    /// A list of objects, each read by `each` with its own fields (named `KEY[i].FIELD`); an
    /// element that is not an object is a problem and left out.
    pub fn objects<T>(&mut self, key: &str, mut each: impl FnMut(Fields) -> T) -> Vec<T> {
        let items = self.get(key, "a list of objects", |v| list(v, |item| Some(item.clone())));
        let Some(items) = items else { return Vec::new() };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            if !item.is_object() || Array::is_array(&item) {
                self.wrong(&format!("{key}[{i}]"), "an object", &item);
                continue;
            }
            let path = format!("{}{key}[{i}].", self.path);
            let (what, problems) = (self.what, &mut *self.problems);
            out.push(each(Fields { object: item, what, path, problems }));
        }
        out
    }
}

/// A JavaScript number that is a whole number within `T`'s range.
pub fn whole<T: TryFrom<u64>>(v: &JsValue) -> Option<T> {
    let x = v.as_f64()?;
    if x.fract() != 0.0 || !(0.0..=MAX_SAFE_INTEGER).contains(&x) {
        return None;
    }
    T::try_from(x as u64).ok()
}

/// A JavaScript number, rounded to the nearest f32.
pub fn number_f32(v: &JsValue) -> Option<f32> {
    v.as_f64().map(|x| x as f32)
}

/// A JavaScript array, each element read by `item` (any that cannot be read: `None`).
pub fn list<T>(v: &JsValue, item: impl Fn(&JsValue) -> Option<T>) -> Option<Vec<T>> {
    if !Array::is_array(v) {
        return None;
    }
    Array::from(v).iter().map(|x| item(&x)).collect()
}

/// A JavaScript array of exactly `N` elements, each read by `item`.
pub fn array<T, const N: usize>(
    v: &JsValue,
    item: impl Fn(&JsValue) -> Option<T>,
) -> Option<[T; N]> {
    list(v, item)?.try_into().ok()
}

/// What a value is, for a problem's message (a number is not printed: that would bring core's
/// float formatting back into the widget's engine).
fn kind(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        let short: String = s.chars().take(40).collect();
        let more = if short.len() < s.len() { "…" } else { "" };
        return format!("the string \"{short}{more}\"");
    }
    let name = if v.as_f64().is_some() {
        "a number"
    } else if v.as_bool().is_some() {
        "true or false"
    } else if Array::is_array(v) {
        "a list"
    } else if v.is_bigint() {
        "a BigInt"
    } else if v.is_function() {
        "a function"
    } else if v.is_object() {
        "an object"
    } else {
        "a value of another kind"
    };
    name.to_string()
}
