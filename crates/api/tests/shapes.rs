//! The wire types against the spec's shapes: exact names, optional fields omitted
//! when absent, and the native-coin vs token account rule.

use satchel_api::*;
use serde_json::{Value, json};

fn holder() -> AccountHolder {
    AccountHolder {
        account_id: "acc-1".into(),
        address: "0xAbC".into(),
        address_path: "m/44'/60'/0'/0/0".into(),
        label: "Account 1".into(),
    }
}

fn coin(symbol: &str, decimals: u32) -> CoinInfo {
    CoinInfo {
        name: format!("{symbol} coin"),
        network: "ethereum".into(),
        symbol: symbol.into(),
        decimals,
        icon_url: "https://icons/x.svg".into(),
        ids: "x".into(),
    }
}

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
    value: &T,
) -> Value {
    let json = serde_json::to_value(value).expect("serialises");
    let back: T = serde_json::from_value(json.clone()).expect("deserialises");
    assert_eq!(&back, value);
    json
}

#[test]
fn a_native_account_carries_coin_id_and_omits_token_fields() {
    let account = Account::native(&holder(), 60, coin("ETH", 18), "1000".into());
    let json = round_trip(&account);
    assert_eq!(
        json,
        json!({
            "accountId": "acc-1", "address": "0xAbC", "addressPath": "m/44'/60'/0'/0/0",
            "label": "Account 1", "balance": "1000", "coinId": 60, "name": "ETH coin",
            "network": "ethereum", "symbol": "ETH", "decimals": 18,
            "iconUrl": "https://icons/x.svg", "ids": "x"
        })
    );
    assert_eq!(account.kind(), Some(AccountKind::Native { coin_id: 60 }));
}

#[test]
fn a_token_account_carries_its_id_and_contract_and_omits_coin_id() {
    let account = Account::token(
        &holder(),
        "tok-1".into(),
        "0xC0".into(),
        coin("USDC", 6),
        "5".into(),
    );
    let json = round_trip(&account);
    assert_eq!(json["accountTokenId"], "tok-1");
    assert_eq!(json["contract"], "0xC0");
    assert_eq!(
        json["accountId"], "acc-1",
        "repeats the holding account's id"
    );
    assert!(json.get("coinId").is_none());
    assert_eq!(
        account.kind(),
        Some(AccountKind::Token {
            account_token_id: "tok-1",
            contract: "0xC0"
        })
    );
}

#[test]
fn an_entry_breaking_the_rule_is_detected() {
    let mut account = Account::native(&holder(), 60, coin("ETH", 18), "0".into());
    account.contract = Some("0xC0".into());
    assert_eq!(account.kind(), None);
}

#[test]
fn the_four_responses_use_the_spec_names() {
    let balance = BalanceResponse {
        balance: "1".into(),
        decimals: 18,
        symbol: "ETH".into(),
        tokens: vec![TokenBalance {
            balance: "2".into(),
            decimals: 6,
            symbol: "USDC".into(),
            contract: "0xC0".into(),
        }],
    };
    assert_eq!(
        round_trip(&balance),
        json!({"balance": "1", "decimals": 18, "symbol": "ETH",
               "tokens": [{"balance": "2", "decimals": 6, "symbol": "USDC", "contract": "0xC0"}]})
    );
    let nft = Nft {
        id: "n1".into(),
        account_id: "acc-1".into(),
        name: "Pal".into(),
        description: "d".into(),
        token_id: "7".into(),
        external_link: "https://x".into(),
        image_url: "https://x/i.png".into(),
        quantity: 3,
        content_type: NftContentType::Video,
        content_url: None,
        state: 1,
        received: None,
        contract: NftContract {
            name: None,
            address: "0xN".into(),
            scheme: NftScheme::Erc1155,
            description: "c".into(),
            network: "ethereum".into(),
            external_link: "".into(),
            image_url: "".into(),
        },
    };
    let json = round_trip(&NftsResponse { nfts: vec![nft] });
    assert_eq!(json["nfts"][0]["contentType"], 2);
    assert_eq!(json["nfts"][0]["contract"]["scheme"], 2);
    assert_eq!(json["nfts"][0]["tokenId"], "7");
    assert!(
        json["nfts"][0].get("contentUrl").is_none(),
        "absent, not null"
    );
    assert!(
        json["nfts"][0]["contract"].get("name").is_none(),
        "absent, not null"
    );
    assert!(
        json["nfts"][0].get("received").is_none(),
        "absent, not null"
    );
    assert_eq!(
        round_trip(&NftsResponse { nfts: vec![] }),
        json!({"nfts": []})
    );
    let accounts = AccountsResponse {
        wallet_id: "w1".into(),
        accounts: vec![],
    };
    assert_eq!(
        round_trip(&accounts),
        json!({"walletId": "w1", "accounts": []})
    );
}

#[test]
fn service_user_omits_what_it_does_not_have() {
    let user = ServiceUser {
        status: Outcome::Success,
        user_info: Some(UserInfo {
            user_id: "u1".into(),
            email: "a@b.c".into(),
            provider: Provider::Email,
            use_2fa: false,
        }),
        user_status: UserStatus {
            login_status: LoginStatus::RegisterRequired,
            pin_required: None,
        },
        wallet_id: None,
        token: Some(ServiceToken {
            access_token: "at".into(),
            refresh_token: "rt".into(),
        }),
    };
    assert_eq!(
        round_trip(&user),
        json!({
            "status": "success",
            "userInfo": {"userId": "u1", "email": "a@b.c", "provider": "email", "use2FA": false},
            "userStatus": {"loginStatus": "registerRequired"},
            "token": {"accessToken": "at", "refreshToken": "rt"}
        })
    );
    let complete = UserStatus {
        login_status: LoginStatus::PinRequired,
        pin_required: Some(true),
    };
    assert_eq!(
        round_trip(&complete),
        json!({"loginStatus": "pinRequired", "pinRequired": true})
    );
}

#[test]
fn sdk_shapes_and_enumerations_are_spelled_as_the_spec_does() {
    let result = LoginResult {
        provider: Provider::ExternalToken,
        token: IdentityTokens {
            id_token: "id".into(),
            refresh_token: "r".into(),
        },
    };
    assert_eq!(
        round_trip(&result),
        json!({"provider": "external_token", "token": {"idToken": "id", "refreshToken": "r"}})
    );
    let error = LoginErrorResult {
        error: "required/register_email".into(),
        id_token: None,
        access_token: Some("a".into()),
        provider: Some(Provider::Naver),
    };
    assert_eq!(
        round_trip(&error),
        json!({"error": "required/register_email", "accessToken": "a", "provider": "naver"})
    );

    let account = ServiceAccount {
        address: "0x1".into(),
        network: "ethereum".into(),
        contract: None,
        is_aa: Some(false),
    };
    assert_eq!(
        round_trip(&account),
        json!({"address": "0x1", "network": "ethereum", "isAA": false})
    );

    let nft = ServiceNft {
        account: ServiceAccount {
            address: "0x1".into(),
            network: "ethereum".into(),
            contract: None,
            is_aa: None,
        },
        contract: ServiceNftContract {
            name: "Pals".into(),
            address: "0xN".into(),
            scheme: ServiceNftScheme::Erc721,
            description: None,
            network: "ethereum".into(),
            external_link: None,
            image_url: None,
        },
        name: "Pal".into(),
        description: "".into(),
        external_link: "".into(),
        image_url: "".into(),
        content_url: None,
        quantity: 1,
        content_type: ServiceContentType::Image,
        state: 1,
        token_id: "7".into(),
        received_from: None,
        likely_spam: true,
    };
    let json = round_trip(&nft);
    assert_eq!(json["tokenId"], "7");
    assert_eq!(json["likelySpam"], true);
    assert!(json.get("receivedFrom").is_none(), "absent, not null");
    assert_eq!(
        json["contract"],
        json!({"name": "Pals", "address": "0xN", "scheme": "ERC721", "network": "ethereum"})
    );
    assert_eq!(json["contentType"], "image");
    assert!(json.get("contentUrl").is_none());

    let states = [
        (ServiceLifeCycle::NotInitialized, "not_initialized"),
        (ServiceLifeCycle::Initializing, "initializing"),
        (ServiceLifeCycle::Initialized, "initialized"),
        (ServiceLifeCycle::BeforeLogin, "before_login"),
        (ServiceLifeCycle::Login, "login"),
        (
            ServiceLifeCycle::LoginBeforeRegister,
            "login_before_register",
        ),
    ];
    for (state, name) in states {
        assert_eq!(round_trip(&state), json!(name));
    }
    for provider in [
        "google",
        "apple",
        "naver",
        "discord",
        "line",
        "facebook",
        "email",
        "external_token",
    ] {
        assert_eq!(
            Provider::parse(provider).map(Provider::as_str),
            Some(provider)
        );
    }
}

#[test]
fn error_codes_and_login_library_strings_are_exact() {
    let body = ApiErrorBody {
        status_code: 403,
        code: RestErrorCode::Forbidden.into(),
        message: "no".into(),
    };
    assert_eq!(
        round_trip(&body),
        json!({"statusCode": 403, "code": "Forbidden", "message": "no"})
    );
    let body = ApiErrorBody {
        status_code: 401,
        code: ServiceErrorCode::InvalidAppKey.into(),
        message: "k".into(),
    };
    assert_eq!(round_trip(&body)["code"], "InvalidAppKey");
    for (error, text) in [
        (
            LoginLibraryError::RequiredRegisterEmail,
            "required/register_email",
        ),
        (LoginLibraryError::InvalidProvider, "Invalid provider"),
        (LoginLibraryError::UserCanceled, "User canceled"),
        (LoginLibraryError::InternalError, "Internal error"),
        (
            LoginLibraryError::EmailVerificationRequired,
            "auth/email-verified",
        ),
        (LoginLibraryError::ExistedEmail, "auth/existed-email"),
        (LoginLibraryError::FailSendEmail, "fail/send-email"),
        (LoginLibraryError::FailEmailVerified, "fail/email-verified"),
        (
            LoginLibraryError::NotInitialized,
            "login module not initialized",
        ),
        (LoginLibraryError::AlreadyLogout, "Already logout"),
    ] {
        assert_eq!(round_trip(&error), json!(text));
        assert_eq!(error.to_string(), text);
    }
}

#[test]
fn tokens_never_show_in_debug_output() {
    let token = ServiceToken {
        access_token: "secret-access".into(),
        refresh_token: "secret-refresh".into(),
    };
    let shown = format!("{token:?}");
    assert!(!shown.contains("secret"), "{shown}");
}

/// strum's names (used by `as_str`) and serde's (used on the wire) are the same.
#[test]
fn enum_names_are_the_wire_names() {
    use strum::IntoEnumIterator as _;
    for p in satchel_api::Provider::iter() {
        assert_eq!(serde_json::to_value(p).expect("json"), p.as_str());
        assert_eq!(satchel_api::Provider::parse(p.as_str()), Some(p));
    }
    for e in satchel_api::LoginLibraryError::iter() {
        assert_eq!(serde_json::to_value(e).expect("json"), e.as_str());
    }
}

/// An NFT of collection `contract` on `network`, as the spec lists it.
fn listed_nft(id: &str, contract: &str, scheme: NftScheme) -> Nft {
    Nft {
        id: id.into(),
        account_id: "acc-1".into(),
        name: format!("Item {id}"),
        description: String::new(),
        token_id: id.into(),
        external_link: String::new(),
        image_url: format!("https://x/{id}.png"),
        quantity: 1,
        content_type: NftContentType::Image,
        content_url: None,
        state: 1,
        received: None,
        contract: NftContract {
            name: Some(format!("Collection {contract}")),
            address: contract.into(),
            scheme,
            description: "a long description the spec's shape repeats".into(),
            network: "ethereum".into(),
            external_link: String::new(),
            image_url: String::new(),
        },
    }
}

#[test]
fn the_grouped_listing_names_each_collection_once_and_gives_back_the_spec_listing() {
    let listing = NftsResponse {
        nfts: vec![
            listed_nft("1", "0xA", NftScheme::Erc721),
            listed_nft("2", "0xB", NftScheme::Erc721),
            listed_nft("3", "0xA", NftScheme::Erc721),
            // The same address with other facts is another collection: the
            // spec's element is given back exactly.
            listed_nft("4", "0xA", NftScheme::Erc1155),
        ],
    };
    let grouped = NftsGrouped::group(listing.clone());
    assert_eq!(grouped.collections.len(), 3);
    let positions: Vec<u32> = grouped.nfts.iter().map(|n| n.collection).collect();
    assert_eq!(positions, [0, 1, 0, 2]);
    let json = round_trip(&grouped);
    assert_eq!(json["nfts"][2]["collection"], 0);
    assert!(json["nfts"][0].get("contract").is_none());
    assert!(
        json["nfts"][0].get("received").is_none(),
        "absent, not null"
    );
    assert_eq!(grouped.into_nfts(), Some(listing));

    // A listing naming a collection it does not have is refused whole.
    let mut broken = NftsGrouped::group(NftsResponse {
        nfts: vec![listed_nft("1", "0xA", NftScheme::Erc721)],
    });
    broken.nfts[0].collection = 1;
    assert_eq!(broken.collection_of(&broken.nfts[0]), None);
    assert_eq!(broken.into_nfts(), None);
}
