//! What the e-mailed links open, and the request that sends one: the address
//! verification, and the password reset (its request, its page with the form,
//! and the form's answer), with the small HTML pages a browser shows for them.

use axum::extract::{FromRequest, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use satchel_api::{PasswordResetConfirm, PasswordResetRequest};
use serde::Deserialize;

use super::caller::{ClientAddress, per_address};
use super::{Json, Query};
use crate::error::ApiResult;
use crate::http::caller::CallingApp;
use crate::identity;
use crate::limits::LimitKey;
use crate::mail::html_escape;
use crate::state::AppState;
use satchel_api::ServiceErrorCode;

/// The token of an e-mailed link: the link's query, and the form its page posts.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct LinkToken {
    token: String,
}

/// The link in the verification e-mail: a page with the button that verifies.
/// Opening the link changes nothing, so a mail scanner that follows links
/// verifies no address it was not asked to.
#[utoipa::path(get, path = "/v1/auth/email/verify",
    params(("token" = String, Query, description = "the token of the e-mailed link")),
    responses((status = 200, description = "an HTML page with the button that verifies the address", content_type = "text/html"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the link has no token")))]
pub async fn verify_page(Query(query): Query<LinkToken>) -> Html<String> {
    Html(button_page(
        "Verify your e-mail address?",
        "Only if you signed up for this app.",
        "/v1/auth/email/verify",
        "Verify my address",
        &query.token,
    ))
}

/// The page's button: verifies the address and says so.
#[utoipa::path(post, path = "/v1/auth/email/verify",
    request_body(content = LinkToken, content_type = "application/x-www-form-urlencoded", description = "the page's form: the link's token"),
    responses((status = 200, description = "an HTML page: the address is verified", content_type = "text/html"),
              (status = 400, description = "an HTML page: the link was used already or has expired (or the form is not the page's)", content_type = "text/html")))]
pub async fn verify(
    State(state): State<AppState>,
    form: Result<axum::Form<LinkToken>, axum::extract::rejection::FormRejection>,
) -> ApiResult<(StatusCode, Html<String>)> {
    // A post that is not the page's form opens no link: the same page as a used one.
    let verified = match form {
        Ok(axum::Form(form)) => identity::email::verify_link(&state, &form.token).await?,
        Err(_) => false,
    };
    let (status, title, text) = if verified {
        (
            StatusCode::OK,
            "E-mail verified",
            "Your e-mail address is verified. Go back to the app and log in.",
        )
    } else {
        (
            StatusCode::BAD_REQUEST,
            "This link does not work",
            "The link was used already or has expired. Ask the app to send a new one.",
        )
    };
    Ok((status, Html(page(title, text))))
}

/// E-mails a link that sets a new password (single use, 1 hour). The answer is
/// the same whether or not the address is registered.
#[utoipa::path(post, path = "/v1/auth/email/password-reset", request_body = PasswordResetRequest,
    responses((status = 204, description = "if the address has a login, the e-mail is on its way (the answer is the same when it has none)"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "IncorrectEmailForm; InvalidLoginProvider when the app has no e-mail logins"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: asked for too often for this address, or from this network address")),
    security(("appKey" = [])))]
pub async fn password_reset(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<PasswordResetRequest>,
) -> ApiResult<StatusCode> {
    let app = app.policy(&state).await?;
    if let Some(address) = address {
        per_address(&state, LimitKey::PasswordResetFrom { address }).await?;
    }
    identity::email::request_password_reset(&state, &app, &body.email).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct ResetQuery {
    token: String,
}

/// The link in the password-reset e-mail: a page with a form for the new
/// password (twice), which posts to `/v1/auth/email/password-reset/confirm`.
/// Opening the link changes nothing.
#[utoipa::path(get, path = "/v1/auth/email/password-reset",
    params(("token" = String, Query, description = "the token of the e-mailed link")),
    responses((status = 200, description = "an HTML page with the new-password form", content_type = "text/html"),
              (status = 400, description = "an HTML page: the link was used already or has expired; InvalidParameters (JSON) when the link has no token",
               content((String = "text/html"), (satchel_api::ApiErrorBody = "application/json")))))]
pub async fn password_reset_page(
    State(state): State<AppState>,
    Query(query): Query<ResetQuery>,
) -> ApiResult<Response> {
    Ok(
        if identity::email::password_reset_usable(&state, &query.token).await? {
            reset_page(&state, StatusCode::OK, &query.token, None)
        } else {
            link_refused_page()
        },
    )
}

/// The form's fields: the token, the new password and (from the page) the same
/// password again.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ResetForm {
    token: String,
    password: String,
    #[serde(default)]
    confirm: Option<String>,
}

/// Sets the new password. From the link's page (form-encoded `token`,
/// `password`, `confirm`) the answer is an HTML page; as JSON
/// (`{token, password}`, for clients) it is 204 or the JSON error. Every session
/// of the login ends, and the address counts as verified.
#[utoipa::path(post, path = "/v1/auth/email/password-reset/confirm",
    request_body(description = "the link's token and the new password",
        content((PasswordResetConfirm = "application/json"),
                (ResetForm = "application/x-www-form-urlencoded"))),
    responses((status = 204, description = "JSON: the new password is in force; every session of the login has ended"),
              (status = 200, description = "form: an HTML page saying the password is changed", content_type = "text/html"),
              (status = 400, description = "JSON: InvalidToken (the link is unknown, used or expired), IncorrectPasswordForm (the link stays usable), InvalidParameters; from the form (or a body that is neither): an HTML page saying which",
               content((satchel_api::ApiErrorBody = "application/json"), (String = "text/html")))))]
pub async fn password_reset_confirm(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Response {
    let json = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if json {
        let body = match Json::<PasswordResetConfirm>::from_request(request, &state).await {
            Ok(Json(body)) => body,
            Err(e) => return e.into_response(),
        };
        return match identity::email::reset_password(&state, &body.token, body.password).await {
            Ok(()) => StatusCode::NO_CONTENT.into_response(),
            Err(e) => e.into_response(),
        };
    }
    let form = match axum::Form::<ResetForm>::from_request(request, &state).await {
        Ok(axum::Form(form)) => form,
        Err(_) => {
            return html_page(
                StatusCode::BAD_REQUEST,
                page(
                    "This form was not complete",
                    "Open the link in the e-mail again and fill in both fields.",
                ),
            );
        }
    };
    if form.confirm.as_deref().is_some_and(|c| c != form.password) {
        return reset_page(
            &state,
            StatusCode::BAD_REQUEST,
            &form.token,
            Some("The two passwords are not the same. Type the new password twice."),
        );
    }
    match identity::email::reset_password(&state, &form.token, form.password).await {
        Ok(()) => html_page(
            StatusCode::OK,
            page(
                "Password changed",
                "Your new password is in force, and every device that was logged in is \
                 logged out. Go back to the app and log in with the new password.",
            ),
        ),
        Err(e) if e.code == ServiceErrorCode::IncorrectPasswordForm.into() => reset_page(
            &state,
            StatusCode::BAD_REQUEST,
            &form.token,
            Some(&format!(
                "The password must have {}.",
                satchel_api::rules::PASSWORD_RULES
            )),
        ),
        Err(e) if e.status == StatusCode::BAD_REQUEST => link_refused_page(),
        Err(e) => {
            tracing::error!(status = e.status.as_u16(), "password reset failed: {e}");
            html_page(
                e.status,
                page(
                    "Something went wrong",
                    "The password was not changed. Try again in a moment.",
                ),
            )
        }
    }
}

/// An HTML answer that is never cached, framed or followed by a `Referer` (the
/// link's token is in its URL).
pub(super) fn html_page(status: StatusCode, html: String) -> Response {
    (
        status,
        [
            (axum::http::header::CACHE_CONTROL, "no-store"),
            (axum::http::header::REFERRER_POLICY, "no-referrer"),
            (axum::http::header::X_FRAME_OPTIONS, "DENY"),
            (
                axum::http::header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
            ),
        ],
        Html(html),
    )
        .into_response()
}

fn link_refused_page() -> Response {
    html_page(
        StatusCode::BAD_REQUEST,
        page(
            "This link does not work",
            "The link was used already or has expired. Ask the app for a new password-reset e-mail.",
        ),
    )
}

/// The page of a reset link: the form for the new password, twice, with
/// `problem` above it when the last try was refused.
fn reset_page(
    state: &AppState,
    status: StatusCode,
    token: &str,
    problem: Option<&str>,
) -> Response {
    let token: String = token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(128)
        .collect();
    let action = state
        .settings
        .public_url
        .join("v1/auth/email/password-reset/confirm")
        .map(|u| u.to_string())
        .unwrap_or_else(|_| "/v1/auth/email/password-reset/confirm".to_owned());
    let problem = problem
        .map(|p| {
            format!(
                "<p role=\"alert\" style=\"color:#b42318\">{}</p>",
                html_escape(p)
            )
        })
        .unwrap_or_default();
    let form = format!(
        "{problem}<form method=\"post\" action=\"{action}\" style=\"display:grid;gap:8px;text-align:left\">\
         <input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <label for=\"password\">New password</label>\
         <input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" \
         minlength=\"{min}\" maxlength=\"{max}\" required>\
         <label for=\"confirm\">The new password again</label>\
         <input id=\"confirm\" name=\"confirm\" type=\"password\" autocomplete=\"new-password\" \
         minlength=\"{min}\" maxlength=\"{max}\" required>\
         <button type=\"submit\">Set the new password</button></form></main>",
        action = html_escape(&action),
        min = satchel_api::rules::PASSWORD_MIN_CHARS,
        max = satchel_api::rules::PASSWORD_MAX_CHARS,
    );
    html_page(
        status,
        page(
            "Choose a new password",
            &format!(
                "The new password needs {}. Setting it logs out every device that is logged in.",
                satchel_api::rules::PASSWORD_RULES
            ),
        )
        .replace("</main>", &form),
    )
}

/// The page an e-mailed link opens: what it is for, and one button that posts
/// its token to `action`. Opening it changes nothing.
pub(super) fn button_page(
    title: &str,
    text: &str,
    action: &str,
    button: &str,
    token: &str,
) -> String {
    let token: String = token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(128)
        .collect();
    page(title, text).replace(
        "</main>",
        &format!(
            "<form method=\"post\" action=\"{action}\">\
             <input type=\"hidden\" name=\"token\" value=\"{token}\">\
             <button type=\"submit\">{button}</button></form></main>",
            action = html_escape(action),
            button = html_escape(button),
        ),
    )
}

/// A small HTML page for a link opened in a browser.
pub(super) fn page(title: &str, text: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>{title}</title><style>body{{font-family:system-ui,sans-serif;\
         display:grid;place-items:center;min-height:90vh;margin:0;color:#14121f}}main{{max-width:28rem;\
         padding:24px;text-align:center}}h1{{font-size:20px;font-weight:600}}p{{color:#6b6880}}</style>\
         </head><body><main><h1>{title}</h1><p>{text}</p></main></body></html>",
        title = html_escape(title),
        text = html_escape(text),
    )
}
