use super::*;
use p256::pkcs8::EncodePrivateKey as _;

fn keys(issuer: &str) -> SigningKeys {
    let secret = SecretKey::random(&mut rand::rngs::OsRng);
    let pem = secret
        .to_pkcs8_pem(LineEnding::LF)
        .expect("pem")
        .to_string();
    SigningKeys::from_pem("k1".into(), &pem, issuer).expect("keys")
}

#[test]
fn a_minted_token_verifies_and_names_user_app_and_session() {
    let keys = keys("http://svc/");
    let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
    let claims = keys.verify_access(&token).expect("valid");
    assert_eq!(
        (
            claims.sub.as_str(),
            claims.app.as_str(),
            claims.sid.as_str()
        ),
        ("u1", "a1", "s1")
    );
}

#[test]
fn an_identity_token_never_passes_for_an_access_token_or_back() {
    let keys = keys("http://svc/");
    let identity = keys
        .mint_identity("i1", "a1", "s1", "a@b.co", true, "email", 60)
        .expect("mint");
    assert_eq!(
        keys.verify_identity(&identity).expect("valid").email,
        "a@b.co"
    );
    assert!(keys.verify_access(&identity).is_err());
    let access = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
    assert!(keys.verify_identity(&access).is_err());
}

#[test]
fn the_jwks_publishes_the_public_point() {
    let jwks = keys("http://svc/").jwks();
    let key = &jwks["keys"][0];
    assert_eq!(key["kid"], "k1");
    assert_eq!(key["x"].as_str().map(str::len), Some(43));
    assert_eq!(key["y"].as_str().map(str::len), Some(43));
}

#[test]
fn expired_foreign_and_tampered_tokens_are_refused() {
    let keys = keys("http://svc/");
    let expired = keys.mint_access("u1", "a1", "s1", -60).expect("mint");
    assert!(matches!(
        keys.verify_access(&expired),
        Err(TokenError::Expired)
    ));
    let foreign = self::keys("http://svc/")
        .mint_access("u1", "a1", "s1", 60)
        .expect("mint");
    assert!(matches!(
        keys.verify_access(&foreign),
        Err(TokenError::Invalid)
    ));
    let other_issuer = self::keys("http://elsewhere/");
    let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
    assert!(other_issuer.verify_access(&token).is_err());
    let mut tampered = token.into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).expect("ascii");
    assert!(keys.verify_access(&tampered).is_err());
}

fn payload(token: &str) -> serde_json::Value {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let part = token.split('.').nth(1).expect("a payload");
    serde_json::from_slice(&b64.decode(part).expect("base64")).expect("json")
}

/// The token with its payload replaced (header and signature kept).
fn with_payload(token: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let parts: Vec<&str> = token.split('.').collect();
    let mut edited = payload(token);
    edit(&mut edited);
    let edited = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(serde_json::to_vec(&edited).expect("json"));
    format!("{}.{edited}.{}", parts[0], parts[2])
}

#[test]
fn an_access_token_with_its_mac_kept_but_a_claim_changed_is_refused() {
    let keys = keys("http://svc/");
    let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
    for claim in ["sub", "app", "sid", "iss"] {
        let forged = with_payload(&token, |p| p[claim] = "other".into());
        assert!(
            matches!(keys.verify_access(&forged), Err(TokenError::Invalid)),
            "{claim}"
        );
    }
    let later = with_payload(&token, |p| p["exp"] = (now() + 3600).into());
    assert!(keys.verify_access(&later).is_err());
    let other_mac = keys.mint_access("u2", "a1", "s1", 60).expect("mint");
    let another_mac = payload(&other_mac)["mac"].clone();
    let swapped = with_payload(&token, |p| p["mac"] = another_mac);
    assert!(keys.verify_access(&swapped).is_err());
    // Taking the MAC out sends the token to the signature check, which the
    // changed claims fail.
    let unmacked = with_payload(&token, |p| {
        p.as_object_mut().expect("object").remove("mac");
        p["sub"] = "other".into();
    });
    assert!(keys.verify_access(&unmacked).is_err());
    assert!(keys.verify_access(&format!("{token}.extra")).is_err());
    assert!(keys.verify_access(&token[..token.len() - 4]).is_err());
}

#[test]
fn an_access_token_still_carries_a_signature_anyone_can_check_with_the_jwks() {
    let keys = keys("http://svc/");
    let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
    let jwk: jsonwebtoken::jwk::Jwk =
        serde_json::from_value(keys.jwks()["keys"][0].clone()).expect("jwk");
    let key = DecodingKey::from_jwk(&jwk).expect("key");
    let claims = jsonwebtoken::decode::<AccessClaims>(&token, &key, &keys.access)
        .expect("the signature verifies")
        .claims;
    assert_eq!(claims.sub, "u1");
}

#[test]
fn an_access_token_minted_before_the_mac_is_checked_by_its_signature() {
    let keys = keys("http://svc/");
    let iat = now();
    let claims = AccessClaims {
        iss: "http://svc/".into(),
        aud: ACCESS_AUDIENCE.into(),
        sub: "u1".into(),
        app: "a1".into(),
        sid: "s1".into(),
        iat,
        exp: iat + 60,
    };
    let signing = keys.keys.read().signing.clone();
    let old = sign(&signing, &claims).expect("sign");
    assert_eq!(keys.verify_access(&old).expect("valid"), claims);
    let forged = with_payload(&old, |p| p["sub"] = "u2".into());
    assert!(matches!(
        keys.verify_access(&forged),
        Err(TokenError::Invalid)
    ));
}

#[test]
fn token_errors_name_the_token_and_what_to_do() {
    let expired = TokenKind::Access.refused(TokenError::Expired);
    assert_eq!(expired.message, "the access token has expired; renew it");
    let expired = TokenKind::Identity.refused(TokenError::Expired);
    assert_eq!(
        expired.message,
        "the identity token has expired; refresh it"
    );
    let invalid = TokenKind::Refresh.refused(TokenError::Invalid);
    assert_eq!(invalid.message, "the refresh token is not valid");
    assert_eq!(
        TokenKind::Refresh.foreign().message,
        "the refresh token was issued for another app"
    );
}
