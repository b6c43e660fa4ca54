mod cli;
mod dispatch;
