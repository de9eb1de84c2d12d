//! Small browser helpers of the page: downloads (Blob + object URL), the URL's query
//! parameters, and fetching a preloaded bundle (`?bundle=<dir>`) from the page's own origin.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::protocol::SourceFile;

/// The files `?bundle=<dir>` loads, in this order.
pub const BUNDLE_FILES: [&str; 3] = ["memories.jsonl", "queries.jsonl", "runs.jsonl"];

/// A JS error value in words: its text, else its `message`, else its debug form.
pub fn js_err(e: JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(&e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{e:?}"))
}

fn window() -> Result<web_sys::Window, String> {
    web_sys::window().ok_or_else(|| "no window".to_string())
}

/// Text as a `Blob` (a file the page makes, e.g. a rescoring handed to the comparison page).
pub fn text_blob(content: &str, mime: &str) -> Result<web_sys::Blob, String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js_err)
}

/// Offers `content` as a file download named `filename`.
pub fn download_text(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js_err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js_err)?;
    let result = click_link(filename, &url);
    // Revoke after the click has started the download.
    let revoke = url.clone();
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&revoke);
    })
    .forget();
    result
}

/// Offers a `data:` or object URL as a download.
pub fn click_link(filename: &str, href: &str) -> Result<(), String> {
    let document = window()?.document().ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(js_err)?.dyn_into().map_err(|_| "not an anchor".to_string())?;
    a.set_href(href);
    a.set_download(filename);
    a.set_attribute("hidden", "").map_err(js_err)?;
    let body = document.body().ok_or("no body")?;
    body.append_child(&a).map_err(js_err)?;
    a.click();
    body.remove_child(&a).map_err(js_err)?;
    Ok(())
}

/// What the page's URL asks for at startup.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StartupRequest {
    /// `?demo`: run the demo of the page shown first. Only the pages of the module loaded first
    /// can be that page ([`super::bridge::host_group`]): a page of the other module, mounted
    /// when it is opened later, does not run its demo.
    pub demo: bool,
    /// `?bundle=<dir>`: fetch `<dir>/memories.jsonl`, `queries.jsonl`, `runs.jsonl`.
    pub bundle: Option<String>,
    /// `?release=<dir or archive>`: the files `<dir>/manifest.json` lists, or one archive.
    pub release: Option<String>,
}

/// Reads `?demo` and `?bundle=` from the page URL, for `page`.
pub fn startup_request(page: super::pages::Page) -> StartupRequest {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return StartupRequest::default();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return StartupRequest::default();
    };
    let first_module = super::bridge::host_group().is_none_or(|g| g == super::bridge::Group::of(page));
    StartupRequest {
        demo: params.has("demo") && first_module,
        bundle: params.get("bundle").filter(|b| !b.trim().is_empty()),
        release: params.get("release").filter(|b| !b.trim().is_empty()),
    }
}

/// The most characters of a companion site's title and description shown (longer ones are
/// cut with "…").
pub const COMPANION_TITLE_CHARS: usize = 200;
pub const COMPANION_ABOUT_CHARS: usize = 2_000;

/// What a companion site says of the results it opens (`?title=…&about=…`): a title and a short
/// description, shown above the pages as text (never as markup), the title also the tab's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Companion {
    pub title: String,
    pub about: Option<String>,
}

/// `?title=` (and `?about=`) of the page URL, when a title is given.
pub fn companion() -> Option<Companion> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    companion_of(params.get("title"), params.get("about"))
}

/// [`companion`] from the two parameters' values: blank ones are none, long ones cut.
pub fn companion_of(title: Option<String>, about: Option<String>) -> Option<Companion> {
    let given = |v: Option<String>, max: usize| {
        v.map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).map(|v| crate::plots::ellipsize(&v, max))
    };
    Some(Companion { title: given(title, COMPANION_TITLE_CHARS)?, about: given(about, COMPANION_ABOUT_CHARS) })
}

/// Resolves `<dir>/<name>` against the page URL and checks it stays on the page's origin.
pub fn bundle_url(dir: &str, name: &str) -> Result<String, String> {
    let href = window()?.location().href().map_err(js_err)?;
    let page = web_sys::Url::new(&href).map_err(js_err)?;
    let dir = dir.trim().trim_end_matches('/');
    let url = web_sys::Url::new_with_base(&format!("{dir}/{name}"), &href)
        .map_err(|_| format!("`{dir}` is not a valid bundle directory"))?;
    if url.origin() != page.origin() {
        return Err(format!(
            "bundle `{dir}` is not on this page's origin ({}); only same-origin bundles are loaded",
            page.origin()
        ));
    }
    Ok(url.href())
}

/// Fetches the three bundle files of `?bundle=<dir>` as blobs.
pub async fn fetch_bundle(dir: String) -> Result<Vec<SourceFile>, String> {
    let mut out = Vec::new();
    for name in BUNDLE_FILES {
        let url = bundle_url(&dir, name)?;
        out.push(SourceFile { name: name.to_string(), blob: fetch_same_origin(&url, "bundle").await? });
    }
    Ok(out)
}

/// What a page fetches at startup from its URL ([`StartupRequest`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Preload {
    /// `?bundle=<dir>`: the three bundle files.
    Bundle(String),
    /// `?release=<dir or archive>`.
    Release(String),
}

impl Preload {
    /// What it is, in the page's words (`bundle`, `release`).
    pub fn kind(&self) -> &'static str {
        match self {
            Preload::Bundle(_) => "bundle",
            Preload::Release(_) => "release",
        }
    }

    /// The folder or archive the URL named.
    pub fn name(&self) -> &str {
        match self {
            Preload::Bundle(x) | Preload::Release(x) => x,
        }
    }

    /// Fetches its files.
    pub async fn fetch(self) -> Result<Preloaded, String> {
        match self {
            Preload::Bundle(dir) => Ok(Preloaded { title: None, files: fetch_bundle(dir).await? }),
            Preload::Release(x) => fetch_release(x).await,
        }
    }
}

/// The most files a release manifest lists.
const MAX_MANIFEST_FILES: usize = 20_000;

/// A release preloaded by `?release=`: its title and files.
pub struct Preloaded {
    pub title: Option<String>,
    pub files: Vec<SourceFile>,
}

/// Fetches `?release=<x>`: one archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`), or the files a folder's
/// `manifest.json` lists (`{"title": "…", "files": ["results/a.jsonl", …]}`, paths below the
/// folder), each named by its path.
pub async fn fetch_release(x: String) -> Result<Preloaded, String> {
    let x = x.trim().trim_end_matches('/').to_string();
    if crate::ingest::archive::ArchiveKind::of_name(&x).is_some() {
        let url = bundle_url(".", &x)?;
        let name = x.rsplit('/').next().unwrap_or(&x).to_string();
        return Ok(Preloaded {
            title: None,
            files: vec![SourceFile { name, blob: fetch_same_origin(&url, "release").await? }],
        });
    }
    let url = bundle_url(&x, "manifest.json")?;
    let blob = fetch_same_origin(&url, "release").await?;
    let text = JsFuture::from(blob.text()).await.map_err(|e| format!("could not read {url}: {}", js_err(e)))?;
    let text = text.as_string().unwrap_or_default();
    let manifest: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{url} is not a release manifest (JSON): {e}"))?;
    let files = manifest.get("files").and_then(|f| f.as_array()).ok_or_else(|| {
        format!("{url} lists no files: write {{\"title\": \"…\", \"files\": [\"path/below/the/folder\", …]}}")
    })?;
    if files.len() > MAX_MANIFEST_FILES {
        return Err(format!("{url} lists {} files, more than the {MAX_MANIFEST_FILES} read at once", files.len()));
    }
    let folder = x.rsplit('/').next().unwrap_or(&x).to_string();
    let mut out = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let path = f.as_str().filter(|p| !p.trim().is_empty() && !p.contains("..")).ok_or_else(|| {
            format!("{url}: files[{i}] is not a path below the folder (a non-empty string without `..`)")
        })?;
        let file_url = bundle_url(&x, path)?;
        out.push(SourceFile { name: format!("{folder}/{path}"), blob: fetch_same_origin(&file_url, "release").await? });
    }
    let title = manifest.get("title").and_then(|t| t.as_str()).map(str::to_string);
    Ok(Preloaded { title, files: out })
}

/// One file of the page's own origin, as a blob (`what`: `bundle`, `release`, for the messages).
async fn fetch_same_origin(url: &str, what: &str) -> Result<web_sys::Blob, String> {
    let win = window()?;
    let page_origin = web_sys::Url::new(&win.location().href().map_err(js_err)?).map_err(js_err)?.origin();
    let resp =
        JsFuture::from(win.fetch_with_str(url)).await.map_err(|e| format!("could not fetch {url}: {}", js_err(e)))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("could not fetch {url}"))?;
    // A same-origin URL may redirect elsewhere: the final URL must be on this origin too.
    let landed = web_sys::Url::new(&resp.url()).map(|u| u.origin()).unwrap_or_default();
    if landed != page_origin {
        return Err(format!(
            "the {what} file {url} redirected to another origin ({}); only same-origin {what}s are loaded",
            if landed.is_empty() { "unknown".to_string() } else { landed }
        ));
    }
    if !resp.ok() {
        return Err(format!("could not load the {what} file {url}: HTTP {} {}", resp.status(), resp.status_text()));
    }
    let blob = JsFuture::from(resp.blob().map_err(js_err)?)
        .await
        .map_err(|e| format!("could not read {url}: {}", js_err(e)))?;
    blob.dyn_into().map_err(|_| format!("could not read {url}"))
}

/// The `SourceFile`s of a `FileList` (file picker or drop).
pub fn source_files(list: Option<web_sys::FileList>) -> Vec<SourceFile> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| SourceFile { name: shown_name(&f), blob: f.into() })
        .collect()
}

/// A file's name as the page shows it: its path below the folder chosen (`webkitRelativePath`,
/// set when a folder was chosen), else its name.
fn shown_name(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &wasm_bindgen::JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| f.name())
}

/// Brings element `id` into view and moves the focus to it (keyboard users follow): a card
/// reached from a headline or a contents link, the page past the skip link. An element that
/// cannot take the focus is given `tabindex="-1"`.
pub fn bring_into_view(id: &str) {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    el.scroll_into_view();
    if let Ok(h) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
        if !h.has_attribute("tabindex") {
            let _ = h.set_attribute("tabindex", "-1");
        }
        let _ = h.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_companion_needs_a_title_and_is_cut_to_its_bounds() {
        assert_eq!(companion_of(None, Some("about".into())), None);
        assert_eq!(companion_of(Some("  ".into()), None), None);
        let c = companion_of(Some(" Paper ".into()), Some(" ".into())).unwrap();
        assert_eq!((c.title.as_str(), c.about), ("Paper", None));
        let c = companion_of(Some("t".repeat(500)), Some("a".repeat(5000))).unwrap();
        assert_eq!(c.title.chars().count(), COMPANION_TITLE_CHARS);
        assert!(c.title.ends_with('…'));
        assert_eq!(c.about.unwrap().chars().count(), COMPANION_ABOUT_CHARS);
    }
}
