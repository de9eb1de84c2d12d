//! The rescoring's settings as a page edits them: every convention that changes a number,
//! drawn from the settings' declaration ([`Settings`]'s fields) by the tool page's form.

use crate::conventions::Settings;
use crate::web::components::fields::FieldDraft;

/// The form's text, parsed on submit.
pub type Draft = FieldDraft<Settings>;

/// The settings of a draft, or what is wrong with it (naming the field by its label).
pub fn parse(draft: &Draft) -> Result<Settings, String> {
    let s = draft.parse(Settings::default())?;
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}
