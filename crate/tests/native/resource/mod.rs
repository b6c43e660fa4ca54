mod fuzz;
mod memory;
mod sample_family;
