//! Built-in uniforms for playground shaders, in a constant buffer of their own so they never
//! collide with `CONST[0]` (which Mesa-generated shaders use for their uniforms):
//!
//! | register | x | y | z | w |
//! |---|---|---|---|---|
//! | `CONST[15][0]` | width (pixels) | height | 1/width | 1/height |
//! | `CONST[15][1]` | time (seconds) | time delta (seconds) | frame number | 0 |
//! | `CONST[15][2]` | mouse x (pixels) | mouse y (pixels, from the bottom row) | 1 while a button is down, else 0 | 0 |
//!
//! A shader reads them with `DCL CONST[15][0..2]`.

/// The constant buffer reserved for the built-in uniforms.
pub const BUILTIN_BUFFER: usize = 15;

/// One register of the built-in buffer and what its four channels hold.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuiltinSlot {
    pub index: u32,
    pub name: &'static str,
    pub channels: [&'static str; 4],
}

/// The layout of `CONST[15]`: the one definition the renderer ([`Builtins::registers`]), the
/// page's constants panel and the docs table above follow.
pub const LAYOUT: [BuiltinSlot; 3] = [
    BuiltinSlot {
        index: 0,
        name: "resolution",
        channels: ["width", "height", "1/width", "1/height"],
    },
    BuiltinSlot { index: 1, name: "time", channels: ["time (s)", "time delta (s)", "frame", "0"] },
    BuiltinSlot {
        index: 2,
        name: "mouse",
        channels: ["mouse x (px)", "mouse y (px, from the bottom)", "button down (1/0)", "0"],
    },
];

/// Values of the built-in uniforms for one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Builtins {
    pub width: u32,
    pub height: u32,
    pub time: f32,
    pub time_delta: f32,
    pub frame: u32,
    pub mouse: [f32; 2],
    pub mouse_down: bool,
}

impl Builtins {
    /// The registers of the reserved buffer, as floats, in [`LAYOUT`] order.
    pub fn registers(&self) -> [[f32; 4]; 3] {
        let (w, h) = (self.width as f32, self.height as f32);
        [
            [w, h, 1.0 / w, 1.0 / h],
            [self.time, self.time_delta, self.frame as f32, 0.0],
            [self.mouse[0], self.mouse[1], if self.mouse_down { 1.0 } else { 0.0 }, 0.0],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let b = Builtins {
            width: 4,
            height: 2,
            time: 1.5,
            time_delta: 0.25,
            frame: 7,
            mouse: [1.0, 2.0],
            mouse_down: true,
        };
        assert_eq!(
            b.registers(),
            [[4.0, 2.0, 0.25, 0.5], [1.5, 0.25, 7.0, 0.0], [1.0, 2.0, 1.0, 0.0]]
        );
        // The published layout names the registers in the same order.
        assert_eq!(LAYOUT.map(|s| s.index), [0, 1, 2]);
        assert_eq!(LAYOUT.map(|s| s.name), ["resolution", "time", "mouse"]);
        assert_eq!(b.registers().len(), LAYOUT.len());
    }
}
