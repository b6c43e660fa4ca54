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
    /// The three registers of the reserved buffer, as floats.
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
    }
}
