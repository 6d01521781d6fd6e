//! Wallet keys against the real service (`satchel_api::keys`): registration proven
//! by a signature of a single-use challenge, PIN proofs counted before they are
//! compared (pauses, the lock and its e-mail link), a reset signed with the
//! wallet's key, and what the database alone holds. Proofs and shares are
//! arbitrary 32-byte values: to the service they are opaque.
//! Every refusal of the wallet-key protocol is a case a client can meet.

use std::time::{Duration, Instant};

use alloy::primitives::hex;
use alloy::signers::Signer as _;
use alloy::signers::local::PrivateKeySigner;
use base64::Engine as _;
use reqwest::{Method, StatusCode};
use satchel_service::admin;
use satchel_tests::{Backend, Stack, send};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::Connection as _;

use crate::assert_error;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A logged-in user of the test app without a wallet, and the key their device
/// would make.
pub(crate) struct Person {
    pub(crate) user_id: String,
    email: String,
    pub(crate) token: String,
    pub(crate) signer: PrivateKeySigner,
}

pub(crate) async fn person(stack: &Stack, email: &str) -> Person {
    let state = &stack.service.state;
    let user_id = admin::create_email_account(state, &stack.app_id().await, email, "correct1horse")
        .await
        .expect("user");
    let token = admin::mint_access_token(state, &user_id, 600)
        .await
        .expect("token");
    Person {
        user_id,
        email: email.to_owned(),
        token,
        signer: PrivateKeySigner::random(),
    }
}

/// A request with the app headers and the bearer token, and a JSON body if given.
pub(crate) async fn call(
    stack: &Stack,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = stack
        .http
        .request(method, stack.url(path))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    send(request).await
}

/// A fresh challenge nonce of the user behind `token`, and the text to sign.
pub(crate) async fn challenge(stack: &Stack, token: &str) -> (String, String) {
    let (status, body) = call(stack, Method::POST, "/v1/wallets/challenge", token, None).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["expiresAt"].as_i64().is_some(), "{body}");
    (
        body["nonce"].as_str().expect("nonce").to_owned(),
        body["message"].as_str().expect("message").to_owned(),
    )
}

pub(crate) async fn sign(signer: &PrivateKeySigner, message: &str) -> String {
    let signature = signer
        .sign_message(message.as_bytes())
        .await
        .expect("signed");
    hex::encode_prefixed(signature.as_bytes())
}

const SALT: [u8; 16] = [7; 16];

fn pin_setup(proof: [u8; 32], share: [u8; 32]) -> Value {
    json!({
        "kdf": {"salt": b64(&SALT), "mCost": 19456, "tCost": 2, "pCost": 1},
        "proof": b64(&proof),
        "share": b64(&share),
    })
}

fn register_body(
    person: &Person,
    nonce: &str,
    signature: &str,
    pin: Value,
    backup: Option<&str>,
) -> Value {
    let mut body = json!({
        "address": person.signer.address().to_checksum(None),
        "addressPath": "m/44'/60'/0'/0/0",
        "nonce": nonce,
        "signature": signature,
        "pin": pin,
    });
    if let Some(backup) = backup {
        body["backup"] = json!(backup);
    }
    body
}

/// Registers `person`'s wallet with this proof, share and backup; its id.
pub(crate) async fn register(
    stack: &Stack,
    person: &Person,
    proof: [u8; 32],
    share: [u8; 32],
    backup: Option<&str>,
) -> String {
    let (nonce, message) = challenge(stack, &person.token).await;
    let signature = sign(&person.signer, &message).await;
    let body = register_body(person, &nonce, &signature, pin_setup(proof, share), backup);
    let (status, user) = call(
        stack,
        Method::POST,
        "/v1/wallets",
        &person.token,
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["userStatus"]["loginStatus"], "complete", "{user}");
    user["walletId"].as_str().expect("walletId").to_owned()
}

async fn login_status(stack: &Stack, person: &Person) -> Value {
    let (status, user) = stack.get("/v1/auth/service/user", &person.token).await;
    assert_eq!(status, 200, "{user}");
    user["userStatus"]["loginStatus"].clone()
}

async fn verify(
    stack: &Stack,
    token: &str,
    wallet_id: &str,
    proof: [u8; 32],
) -> (StatusCode, Value) {
    verify_with(stack, token, wallet_id, json!({"proof": b64(&proof)})).await
}

/// A verify asking for the kept backup too (a restore).
async fn verify_for_backup(
    stack: &Stack,
    token: &str,
    wallet_id: &str,
    proof: [u8; 32],
) -> (StatusCode, Value) {
    let body = json!({"proof": b64(&proof), "backup": true});
    verify_with(stack, token, wallet_id, body).await
}

async fn verify_with(
    stack: &Stack,
    token: &str,
    wallet_id: &str,
    body: Value,
) -> (StatusCode, Value) {
    call(
        stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/pin/verify"),
        token,
        Some(body),
    )
    .await
}

async fn pin_status(stack: &Stack, token: &str, wallet_id: &str) -> Value {
    let (status, body) = stack
        .get(&format!("/v1/wallets/{wallet_id}/pin"), token)
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Verifies with `proof` until the answer is not a pause's 429 (at most 20 s).
async fn verify_after_pause(
    stack: &Stack,
    token: &str,
    wallet_id: &str,
    proof: [u8; 32],
) -> (StatusCode, Value) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, body) = verify(stack, token, wallet_id, proof).await;
        if status != StatusCode::TOO_MANY_REQUESTS {
            return (status, body);
        }
        assert_error(status, &body, 429, "TooManyRequests");
        assert!(Instant::now() < deadline, "the pause never ended: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A raw connection to the stack's database, as someone who copied it would read it.
async fn database(stack: &Stack) -> sqlx::AnyConnection {
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(&stack.service.state.settings.database_url())
        .await
        .expect("the database opens")
}

pub async fn registration_needs_a_fresh_nonce_signed_by_the_address(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = person(&stack, "ada@example.com").await;
    let bob = person(&stack, "bob@example.com").await;
    let pin = || pin_setup([1; 32], [2; 32]);
    let post = |body: Value| call(&stack, Method::POST, "/v1/wallets", &ada.token, Some(body));

    // A signature by another key: refused, and the nonce is used up.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let foreign_key = PrivateKeySigner::random();
    let signature = sign(&foreign_key, &message).await;
    let (status, body) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("signature")),
        "{body}"
    );
    assert_eq!(login_status(&stack, &ada).await, "registerRequired");

    // The same nonce again, now rightly signed: used already.
    let signature = sign(&ada.signer, &message).await;
    let (status, body) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("used already")),
        "{body}"
    );
    assert_eq!(login_status(&stack, &ada).await, "registerRequired");

    // An expired nonce.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let mut db = database(&stack).await;
    sqlx::query("UPDATE wallet_challenges SET expires_at = $1 WHERE nonce = $2")
        .bind(satchel_service::clock::now() - 1)
        .bind(&nonce)
        .execute(&mut db)
        .await
        .expect("expired");
    let signature = sign(&ada.signer, &message).await;
    let (status, body) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("expired")),
        "{body}"
    );

    // Another user's nonce, signed as if it were Ada's; and one never issued.
    let (bobs_nonce, _) = challenge(&stack, &bob.token).await;
    let message = satchel_api::challenge_message(&ada.user_id, &bobs_nonce);
    let signature = sign(&ada.signer, &message).await;
    let (status, body) = post(register_body(&ada, &bobs_nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("nonce")),
        "{body}"
    );
    let message = satchel_api::challenge_message(&ada.user_id, "made-up");
    let signature = sign(&ada.signer, &message).await;
    let (status, body) = post(register_body(&ada, "made-up", &signature, pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert_eq!(login_status(&stack, &ada).await, "registerRequired");

    // Malformed PIN material, backup or signature: refused before the nonce is
    // looked at, so the nonce still works afterwards.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let signature = sign(&ada.signer, &message).await;
    let short_proof = json!({
        "kdf": {"salt": b64(&SALT), "mCost": 19456, "tCost": 2, "pCost": 1},
        "proof": b64(&[1; 31]),
        "share": b64(&[2; 32]),
    });
    let mut weak_kdf = pin();
    weak_kdf["kdf"]["mCost"] = json!(1024);
    let mut short_salt = pin();
    short_salt["kdf"]["salt"] = json!(b64(&[7; 8]));
    let mut long_share = pin();
    long_share["share"] = json!(b64(&[2; 33]));
    for (pin, field) in [
        (short_proof, "pin.proof"),
        (weak_kdf, "pin.kdf.mCost"),
        (short_salt, "pin.kdf.salt"),
        (long_share, "pin.share"),
    ] {
        let (status, body) = post(register_body(&ada, &nonce, &signature, pin, None)).await;
        assert_error(status, &body, 400, "InvalidParameters");
        assert!(
            body["message"].as_str().is_some_and(|m| m.contains(field)),
            "{field}: {body}"
        );
    }
    let too_long = "A".repeat(2052);
    let (status, body) = post(register_body(
        &ada,
        &nonce,
        &signature,
        pin(),
        Some(&too_long),
    ))
    .await;
    assert_error(status, &body, 400, "InvalidParameters");
    let (status, body) = post(register_body(&ada, &nonce, "0x1234", pin(), None)).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert_eq!(login_status(&stack, &ada).await, "registerRequired");
    let (wallets,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM wallets")
        .fetch_one(&mut db)
        .await
        .expect("counted");
    assert_eq!(wallets, 0, "no refused registration left a wallet");

    // The untouched nonce, rightly signed: the wallet is made.
    let (status, user) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["userStatus"]["loginStatus"], "complete");
    let wallet_id = user["walletId"].as_str().expect("walletId");
    let (status, accounts) = stack
        .get(
            &format!("/v1/account?userId={}&walletId={wallet_id}", ada.user_id),
            &ada.token,
        )
        .await;
    assert_eq!(status, 200, "{accounts}");
    assert_eq!(
        accounts["accounts"][0]["address"]
            .as_str()
            .map(str::to_ascii_lowercase),
        Some(ada.signer.address().to_string().to_ascii_lowercase())
    );

    // Of a user's challenges only the 5 newest work.
    let mut issued = Vec::new();
    for _ in 0..6 {
        issued.push(challenge(&stack, &bob.token).await);
    }
    let bob_post = |nonce: &str, signature: &str| {
        let body = register_body(&bob, nonce, signature, pin(), None);
        call(&stack, Method::POST, "/v1/wallets", &bob.token, Some(body))
    };
    let (oldest, message) = &issued[0];
    let (status, body) = bob_post(oldest, &sign(&bob.signer, message).await).await;
    assert_error(status, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("nonce: not a challenge")),
        "{body}"
    );
    let (kept, message) = &issued[1];
    let (status, user) = bob_post(kept, &sign(&bob.signer, message).await).await;
    assert_eq!(status, 200, "{user}");

    // A second registration is a 409, even with the used nonce (a retry whose
    // first answer was lost learns that it went through).
    let (status, body) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 409, "Conflict");
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let signature = sign(&ada.signer, &message).await;
    let (status, body) = post(register_body(&ada, &nonce, &signature, pin(), None)).await;
    assert_error(status, &body, 409, "Conflict");
}

pub async fn wrong_proofs_pause_and_the_right_proof_then_releases_the_share(backend: Backend) {
    // An hour's pause: it holds whatever the machine's load; the test ends it by
    // moving its end into the past.
    let stack = Stack::start_with(backend, |s| s.pin_pause_secs = 3600).await;
    let ada = person(&stack, "ada@example.com").await;
    let (right, wrong, share) = ([1; 32], [9; 32], [2; 32]);
    let backup = b64(&[5; 120]);
    let wallet_id = register(&stack, &ada, right, share, Some(&backup)).await;

    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        status,
        json!({
            "kdf": {"salt": b64(&SALT), "mCost": 19456, "tCost": 2, "pCost": 1},
            "triesLeft": 5, "lockedForSecs": 0, "emailRequired": false, "hasBackup": true,
        })
    );
    let (code, release) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release, json!({"share": b64(&share)}), "no backup unasked");
    let (code, release) = verify_for_backup(&stack, &ada.token, &wallet_id, right).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release, json!({"share": b64(&share), "backup": backup}));

    for left in (1..=4).rev() {
        let (code, body) = verify(&stack, &ada.token, &wallet_id, wrong).await;
        assert_error(code, &body, 403, "WrongPin");
        let tries = if left == 1 {
            "1 try".to_owned()
        } else {
            format!("{left} tries")
        };
        assert!(
            body["message"].as_str().is_some_and(|m| m.contains(&tries)),
            "{body}"
        );
        assert_eq!(
            pin_status(&stack, &ada.token, &wallet_id).await["triesLeft"],
            left
        );
    }
    let (code, body) = verify(&stack, &ada.token, &wallet_id, wrong).await;
    assert_error(code, &body, 403, "WrongPin");
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        status["triesLeft"], 5,
        "tries left before the lock: {status}"
    );
    assert!(
        status["lockedForSecs"].as_u64().is_some_and(|s| s > 3500),
        "{status}"
    );

    // The right proof during the pause: 429, and not counted.
    let (code, body) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_error(code, &body, 429, "TooManyRequests");
    assert!(
        body["message"].as_str().is_some_and(|m| m.contains(" s")),
        "{body}"
    );
    let (code, body) = verify(&stack, &ada.token, &wallet_id, wrong).await;
    assert_error(code, &body, 429, "TooManyRequests");
    assert_eq!(
        pin_status(&stack, &ada.token, &wallet_id).await["triesLeft"],
        5
    );

    // Once the pause has passed, the right proof releases the same share and
    // clears the count.
    sqlx::query("UPDATE wallet_keys SET locked_until = locked_until - 3602")
        .execute(&mut database(&stack).await)
        .await
        .expect("the pause ended");
    let (code, release) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release["share"], b64(&share));
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        (&status["triesLeft"], &status["lockedForSecs"]),
        (&json!(5), &json!(0)),
        "{status}"
    );

    // A malformed proof is refused without being counted.
    let (code, body) = call(
        &stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/pin/verify"),
        &ada.token,
        Some(json!({"proof": "short"})),
    )
    .await;
    assert_error(code, &body, 400, "InvalidParameters");
    assert_eq!(
        pin_status(&stack, &ada.token, &wallet_id).await["triesLeft"],
        5
    );
}

pub async fn ten_wrong_proofs_lock_until_the_emailed_link_is_opened(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.pin_pause_secs = 0).await;
    let ada = person(&stack, "ada@example.com").await;
    let (right, wrong, share) = ([1; 32], [9; 32], [2; 32]);
    let wallet_id = register(&stack, &ada, right, share, None).await;
    let unlock_email = format!("/v1/wallets/{wallet_id}/pin/unlock-email");

    let (code, body) = call(&stack, Method::POST, &unlock_email, &ada.token, None).await;
    assert_error(code, &body, 400, "InvalidParameters");

    for attempt in 1..=10 {
        let (code, body) = verify_after_pause(&stack, &ada.token, &wallet_id, wrong).await;
        assert_error(code, &body, 403, "WrongPin");
        if attempt == 10 {
            assert!(
                body["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("locked")),
                "{body}"
            );
        }
    }
    let (code, body) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_error(code, &body, 423, "PinLocked");
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        (&status["emailRequired"], &status["triesLeft"]),
        (&json!(true), &json!(0)),
        "{status}"
    );

    let (code, body) = call(&stack, Method::POST, &unlock_email, &ada.token, None).await;
    assert_eq!(code, 204, "{body}");
    let link = stack
        .verification_link(&ada.email)
        .expect("the unlock e-mail is in the outbox");
    assert!(link.contains("/v1/wallets/pin/unlock?token="), "{link}");
    let (code, body) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_error(code, &body, 423, "PinLocked");

    // Opening the link (as a mail scanner does) changes nothing; the page's
    // button does, once.
    let page = stack.http.get(&link).send().await.expect("opened");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("html").contains("Unlock my PIN"));
    let (code, body) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_error(code, &body, 423, "PinLocked");
    let token = link.split("token=").nth(1).expect("a token").to_owned();
    let unlock = stack.url("/v1/wallets/pin/unlock");
    let confirm = || {
        stack
            .http
            .post(&unlock)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("token={token}"))
            .send()
    };
    let page = confirm().await.expect("confirmed");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("html").contains("unlocked"));
    assert_eq!(
        confirm().await.expect("again").status(),
        400,
        "a link works once"
    );

    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        (&status["emailRequired"], &status["triesLeft"]),
        (&json!(false), &json!(5)),
        "{status}"
    );
    let (code, release) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release["share"], b64(&share));
}

pub async fn the_database_alone_holds_no_usable_share_and_parallel_guesses_are_counted(
    backend: Backend,
) {
    let stack = Stack::start(backend).await;
    let ada = person(&stack, "ada@example.com").await;
    let (proof, share) = ([0x5a; 32], [0xc3; 32]);
    let wallet_id = register(&stack, &ada, proof, share, None).await;

    let mut db = database(&stack).await;
    let (proof_hash, share_sealed): (String, String) =
        sqlx::query_as("SELECT proof_hash, share_sealed FROM wallet_keys WHERE wallet_id = $1")
            .bind(&wallet_id)
            .fetch_one(&mut db)
            .await
            .expect("the wallet's row");
    for plain in [b64(&share), hex::encode(share)] {
        assert!(
            !share_sealed.contains(&plain),
            "the share is stored in the clear"
        );
    }
    let sealed = base64::engine::general_purpose::STANDARD
        .decode(&share_sealed)
        .expect("base64");
    assert!(
        !sealed.windows(32).any(|w| w == share),
        "the stored share decodes to the share"
    );
    for plain in [
        hex::encode(proof),
        b64(&proof),
        hex::encode(Sha256::digest(proof)),
        hex::encode(Sha256::digest(b64(&proof))),
    ] {
        assert_ne!(proof_hash, plain, "the proof hash is not keyed");
    }
    let secret_file = stack.service.state.settings.data_dir.join("pin.secret");
    let secret = std::fs::read(&secret_file).expect("the secret is in data_dir");
    assert_eq!(secret.len(), 32);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&secret_file)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // Eight guesses at once: five are compared and counted, three wait out the pause.
    let guesses = (0..8u8).map(|i| verify(&stack, &ada.token, &wallet_id, [i; 32]));
    let answers = futures::future::join_all(guesses).await;
    let codes: Vec<&str> = answers
        .iter()
        .map(|(_, body)| body["code"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(
        codes.iter().filter(|c| **c == "WrongPin").count(),
        5,
        "{codes:?}"
    );
    assert_eq!(
        codes.iter().filter(|c| **c == "TooManyRequests").count(),
        3,
        "{codes:?}"
    );
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert!(
        status["lockedForSecs"].as_u64().is_some_and(|s| s >= 30),
        "{status}"
    );
    let (code, body) = verify(&stack, &ada.token, &wallet_id, proof).await;
    assert_error(code, &body, 429, "TooManyRequests");
}

pub async fn a_reset_signed_by_the_wallets_key_sets_a_new_pin_even_when_locked(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.pin_pause_secs = 0).await;
    let ada = person(&stack, "ada@example.com").await;
    let (old, wrong, old_share) = ([1; 32], [9; 32], [2; 32]);
    let wallet_id = register(&stack, &ada, old, old_share, Some(&b64(&[5; 64]))).await;
    for _ in 0..10 {
        let (code, body) = verify_after_pause(&stack, &ada.token, &wallet_id, wrong).await;
        assert_error(code, &body, 403, "WrongPin");
    }
    let (code, body) = verify(&stack, &ada.token, &wallet_id, old).await;
    assert_error(code, &body, 423, "PinLocked");

    let reset_path = format!("/v1/wallets/{wallet_id}/pin/reset");
    let reset = |nonce: String, signature: String, pin: Value| {
        call(
            &stack,
            Method::POST,
            &reset_path,
            &ada.token,
            Some(json!({"nonce": nonce, "signature": signature, "pin": pin})),
        )
    };
    let (new, new_share) = ([3; 32], [4; 32]);

    // Signed by another key: refused, still locked, and the nonce is used up.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let other = PrivateKeySigner::random();
    let (code, body) = reset(
        nonce.clone(),
        sign(&other, &message).await,
        pin_setup(new, new_share),
    )
    .await;
    assert_error(code, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("signature")),
        "{body}"
    );
    assert_eq!(
        pin_status(&stack, &ada.token, &wallet_id).await["emailRequired"],
        true
    );
    let signature = sign(&ada.signer, &message).await;
    let (code, body) = reset(nonce, signature, pin_setup(new, new_share)).await;
    assert_error(code, &body, 400, "InvalidParameters");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("used already")),
        "{body}"
    );

    // Malformed PIN material.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let signature = sign(&ada.signer, &message).await;
    let mut bad = pin_setup(new, new_share);
    bad["proof"] = json!("AAAA");
    let (code, body) = reset(nonce.clone(), signature.clone(), bad).await;
    assert_error(code, &body, 400, "InvalidParameters");

    // Signed by the wallet's key: a new PIN and share, lock lifted, backup cleared.
    let (code, body) = reset(nonce, signature, pin_setup(new, new_share)).await;
    assert_eq!(code, 204, "{body}");
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(
        (
            &status["emailRequired"],
            &status["triesLeft"],
            &status["hasBackup"]
        ),
        (&json!(false), &json!(5), &json!(false)),
        "{status}"
    );
    let (code, body) = verify(&stack, &ada.token, &wallet_id, old).await;
    assert_error(code, &body, 403, "WrongPin");
    let (code, release) = verify(&stack, &ada.token, &wallet_id, new).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release, json!({"share": b64(&new_share)}));

    // A PIN change: proven by the current proof, the share stays.
    let pin_path = format!("/v1/wallets/{wallet_id}/pin");
    let newer = [6; 32];
    let backup = b64(&[8; 90]);
    let (code, body) = call(
        &stack,
        Method::PUT,
        &pin_path,
        &ada.token,
        Some(json!({"proof": b64(&new), "pin": pin_setup(newer, [7; 32])})),
    )
    .await;
    assert_error(code, &body, 400, "InvalidParameters");
    let (code, body) = call(
        &stack,
        Method::PUT,
        &pin_path,
        &ada.token,
        Some(json!({"proof": b64(&wrong), "pin": pin_setup(newer, new_share)})),
    )
    .await;
    assert_error(code, &body, 403, "WrongPin");
    let (code, body) = call(
        &stack,
        Method::PUT,
        &pin_path,
        &ada.token,
        Some(json!({"proof": b64(&new), "pin": pin_setup(newer, new_share), "backup": backup})),
    )
    .await;
    assert_eq!(code, 204, "{body}");
    let (code, body) = verify(&stack, &ada.token, &wallet_id, new).await;
    assert_error(code, &body, 403, "WrongPin");
    let (code, release) = verify_for_backup(&stack, &ada.token, &wallet_id, newer).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release, json!({"share": b64(&new_share), "backup": backup}));

    // A wallet made without PIN material (by the operator) gets one by a reset
    // signed with its key.
    let bob = stack.user("bob@example.com").await;
    let (code, body) = stack
        .get(&format!("/v1/wallets/{}/pin", bob.wallet_id), &bob.token)
        .await;
    assert_error(code, &body, 404, "NotFound");
    let (nonce, message) = challenge(&stack, &bob.token).await;
    let (code, body) = call(
        &stack,
        Method::POST,
        &format!("/v1/wallets/{}/pin/reset", bob.wallet_id),
        &bob.token,
        Some(json!({
            "nonce": nonce,
            "signature": sign(&bob.signer, &message).await,
            "pin": pin_setup(new, new_share),
        })),
    )
    .await;
    assert_eq!(code, 204, "{body}");
    let (code, release) = verify(&stack, &bob.token, &bob.wallet_id, new).await;
    assert_eq!(code, 200, "{release}");
}

pub async fn another_user_cannot_read_or_use_a_wallets_pin(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = person(&stack, "ada@example.com").await;
    let eve = person(&stack, "eve@example.com").await;
    let (right, share) = ([1; 32], [2; 32]);
    let wallet_id = register(&stack, &ada, right, share, None).await;
    let eves_wallet = register(&stack, &eve, [3; 32], [4; 32], None).await;

    let (code, body) = stack
        .get(&format!("/v1/wallets/{wallet_id}/pin"), &eve.token)
        .await;
    assert_error(code, &body, 403, "Forbidden");
    let (code, body) = verify(&stack, &eve.token, &wallet_id, right).await;
    assert_error(code, &body, 403, "Forbidden");
    assert!(!body.to_string().contains(&b64(&share)));
    let (code, body) = call(
        &stack,
        Method::PUT,
        &format!("/v1/wallets/{wallet_id}/pin"),
        &eve.token,
        Some(json!({"proof": b64(&right), "pin": pin_setup([5; 32], share)})),
    )
    .await;
    assert_error(code, &body, 403, "Forbidden");
    let (nonce, message) = challenge(&stack, &eve.token).await;
    let (code, body) = call(
        &stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/pin/reset"),
        &eve.token,
        Some(json!({
            "nonce": nonce,
            "signature": sign(&eve.signer, &message).await,
            "pin": pin_setup([5; 32], [6; 32]),
        })),
    )
    .await;
    assert_error(code, &body, 403, "Forbidden");
    let (code, body) = call(
        &stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/pin/unlock-email"),
        &eve.token,
        None,
    )
    .await;
    assert_error(code, &body, 403, "Forbidden");
    assert!(
        stack.mail_links(&ada.email).is_empty() && stack.mail_links(&eve.email).is_empty(),
        "no unlock e-mail went to anyone"
    );
    // Nothing Eve did was counted against Ada's PIN.
    let status = pin_status(&stack, &ada.token, &wallet_id).await;
    assert_eq!(status["triesLeft"], 5, "{status}");
    let (code, release) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_eq!(code, 200, "{release}");
    assert_eq!(release["share"], b64(&share));
    assert_eq!(
        pin_status(&stack, &eve.token, &eves_wallet).await["triesLeft"],
        5
    );

    let (code, body) = stack
        .get("/v1/wallets/no-such-wallet/pin", &ada.token)
        .await;
    assert_error(code, &body, 404, "NotFound");
    let (code, body) = call(
        &stack,
        Method::POST,
        "/v1/wallets/challenge",
        "garbled",
        None,
    )
    .await;
    assert_error(code, &body, 401, "InvalidToken");

    // Every route is in the OpenAPI document with its error statuses.
    let (code, doc) = send(stack.http.get(stack.url("/v1/openapi.json"))).await;
    assert_eq!(code, 200);
    let verify_doc = &doc["paths"]["/v1/wallets/{walletId}/pin/verify"]["post"];
    for status in ["200", "400", "403", "404", "423", "429"] {
        assert!(
            verify_doc["responses"][status].is_object(),
            "verify {status}: {verify_doc}"
        );
    }
    for (path, method) in [
        ("/v1/wallets/challenge", "post"),
        ("/v1/wallets/{walletId}/pin", "get"),
        ("/v1/wallets/{walletId}/pin", "put"),
        ("/v1/wallets/{walletId}/pin/reset", "post"),
        ("/v1/wallets/{walletId}/pin/unlock-email", "post"),
        ("/v1/wallets/pin/unlock", "get"),
        ("/v1/wallets/pin/unlock", "post"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is documented"
        );
    }
    for schema in [
        "WalletChallenge",
        "PinStatus",
        "PinProof",
        "PinRelease",
        "PinChange",
        "PinReset",
    ] {
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }
}

/// Locks the PIN with ten wrong proofs, then lifts the lock with the e-mailed
/// link's button, as its owner would.
async fn lock_and_unlock_by_email(stack: &Stack, ada: &Person, wallet_id: &str) -> Vec<String> {
    for _ in 0..10 {
        let (code, body) = verify_after_pause(stack, &ada.token, wallet_id, [9; 32]).await;
        assert_error(code, &body, 403, "WrongPin");
    }
    let before = stack.mail_links(&ada.email);
    let unlock_email = format!("/v1/wallets/{wallet_id}/pin/unlock-email");
    let (code, body) = call(stack, Method::POST, &unlock_email, &ada.token, None).await;
    assert_eq!(code, 204, "{body}");
    let link = stack
        .new_mail_link(&ada.email, &before)
        .expect("the unlock e-mail");
    let token = link.split("token=").nth(1).expect("a token").to_owned();
    let page = stack
        .http
        .post(stack.url("/v1/wallets/pin/unlock"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("token={token}"))
        .send()
        .await
        .expect("confirmed");
    assert_eq!(page.status(), 200);
    before
}

pub async fn twenty_wrong_pins_since_the_last_right_one_need_the_recovery_phrase(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.pin_pause_secs = 0).await;
    let ada = person(&stack, "ada@example.com").await;
    let (right, share) = ([1; 32], [2; 32]);
    let wallet_id = register(&stack, &ada, right, share, Some(&b64(&[5; 64]))).await;
    let outbox = stack.service.state.settings.data_dir.join("outbox");
    let notices = || {
        std::fs::read_dir(&outbox)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                std::fs::read_to_string(e.path())
                    .is_ok_and(|m| m.contains("PIN was unlocked") && m.contains(&ada.email))
            })
            .count()
    };
    // Ten wrong, the link, ten more: the mailbox's holder gets no further.
    lock_and_unlock_by_email(&stack, &ada, &wallet_id).await;
    assert_eq!(notices(), 1, "the owner is told of every unlock");
    for _ in 0..10 {
        let (code, body) = verify_after_pause(&stack, &ada.token, &wallet_id, [9; 32]).await;
        assert_error(code, &body, 403, "WrongPin");
    }
    let unlock_email = format!("/v1/wallets/{wallet_id}/pin/unlock-email");
    let (code, body) = call(&stack, Method::POST, &unlock_email, &ada.token, None).await;
    assert_error(code, &body, 423, "PinLocked");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("recovery phrase")),
        "{body}"
    );
    let (code, body) = verify(&stack, &ada.token, &wallet_id, right).await;
    assert_error(code, &body, 423, "PinLocked");
    assert_eq!(notices(), 1);

    // The recovery phrase (the wallet's key signing a challenge) starts over.
    let (nonce, message) = challenge(&stack, &ada.token).await;
    let signature = sign(&ada.signer, &message).await;
    let (new, new_share) = ([3; 32], [4; 32]);
    let (code, body) = call(
        &stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/pin/reset"),
        &ada.token,
        Some(json!({"nonce": nonce, "signature": signature, "pin": pin_setup(new, new_share)})),
    )
    .await;
    assert_eq!(code, 204, "{body}");
    let (code, release) = verify(&stack, &ada.token, &wallet_id, new).await;
    assert_eq!(code, 200, "{release}");

    // A right PIN starts the count again: ten wrong are again a lock the link lifts.
    lock_and_unlock_by_email(&stack, &ada, &wallet_id).await;
    let (code, release) = verify(&stack, &ada.token, &wallet_id, new).await;
    assert_eq!(code, 200, "{release}");
}
