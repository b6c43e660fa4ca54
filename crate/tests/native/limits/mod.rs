mod agal_spans;
mod default_budget;
mod inputs;
mod timeout;
