mod render;
mod stage;
