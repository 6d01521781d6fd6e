//! The widget core against the real service and chain: the life cycle from init to
//! finalize, register with a PIN, accounts, balances, NFTs and the refresh cooldown.

use std::sync::Arc;

use alloy::primitives::utils::parse_units;
use satchel_api::{
    LoginStatus, ServiceContentType, ServiceErrorCode, ServiceLifeCycle, ServiceNftScheme,
};
use satchel_sdk::vault::KdfStrength;
use satchel_sdk::{
    ErrorCode, Login, MemoryStore, SdkErrorCode, ThumbnailSize, Thumbnails, TokenStore, Widget,
};
use satchel_tests::{Backend, Stack};

async fn widget(stack: &Stack, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store).with_kdf(KdfStrength::Test);
    widget.init(stack.sdk_config()).await.expect("initialised");
    widget
}

pub async fn the_widget_registers_a_wallet_and_shows_it(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    // Sign up and verify through the login library, as the sign-up page does.
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let w = widget(&stack, store.clone()).await;
    assert_eq!(
        w.get_status(),
        ServiceLifeCycle::LoginBeforeRegister,
        "found the stored session"
    );
    assert!(!w.open_widget(), "no wallet yet, no widget");
    let e = w
        .get_accounts(None, false)
        .await
        .expect_err("not registered");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession));
    let e = w.register("12345").await.expect_err("short PIN");
    assert!(e.is(ServiceErrorCode::InvalidParameters));

    let user = w.register("246810").await.expect("registered");
    assert_eq!(user.user_status.login_status, LoginStatus::Complete);
    assert!(user.wallet_id.is_some());
    assert!(user.token.is_none(), "the widget never hands out tokens");
    assert_eq!(w.get_status(), ServiceLifeCycle::Login);
    let e = w.register("246810").await.expect_err("once only");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession));

    let accounts = w.get_accounts(None, false).await.expect("accounts");
    assert_eq!(accounts.len(), 3);
    let address = accounts[0].address.clone();
    let signer = w.unlock("246810").await.expect("the PIN opens the key");
    assert_eq!(
        signer.address().to_checksum(None),
        address,
        "the service has the address the device made"
    );
    assert!(
        w.unlock("000000")
            .await
            .expect_err("wrong PIN")
            .is(ServiceErrorCode::InvalidParameters)
    );
    assert_eq!(
        w.get_accounts(Some(&["elsewhere".to_owned()]), true)
            .await
            .expect("filtered"),
        vec![]
    );

    let before = w.get_balance(None).await.expect("balances");
    assert_eq!(before[0].balance, "0");
    let to = address.parse().expect("address");
    stack
        .demo
        .send_ether(to, parse_units("1.25", 18).expect("units").into())
        .await
        .expect("sent");
    stack
        .demo
        .send_token(
            stack.demo.dollar6,
            to,
            parse_units("420.5", 6).expect("units").into(),
        )
        .await
        .expect("sent");
    stack
        .demo
        .mint_items(to, &[(1, 3), (2, 1)])
        .await
        .expect("minted");
    let after = w.refresh_balances().await.expect("refreshed");
    assert_eq!(after[0].balance, "1.25");
    assert_eq!(after[0].symbol, "ETH");
    let dusd = after[0]
        .tokens
        .iter()
        .find(|t| t.symbol == "DUSD")
        .expect("DUSD");
    assert_eq!(dusd.balance, "420.5");
    let e = w.refresh_balances().await.expect_err("cooldown");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TooManyRequests));

    assert_eq!(w.get_nfts(false, None).await.expect("none yet"), vec![]);
    let nfts = w.get_nfts(true, None).await.expect("refreshed");
    assert_eq!(nfts.len(), 2);
    let clip = nfts
        .iter()
        .find(|n| n.content_type == ServiceContentType::Video)
        .expect("the clip");
    assert_eq!(clip.contract.scheme, ServiceNftScheme::Erc1155);
    assert_eq!(clip.account.address, address);
    assert_eq!(
        w.get_nfts(false, Some(&["anvil".to_owned()]))
            .await
            .expect("listed")
            .len(),
        2
    );
    assert!(
        w.get_nfts(true, None).await.is_err(),
        "NFT refresh has its cooldown too"
    );

    // Pictures and links of the listed NFTs only: the page cannot make the app
    // fetch or open anything else.
    let thumbnails = tempfile::tempdir().expect("dir");
    w.set_thumbnails(Thumbnails::new(thumbnails.path()).expect("thumbnails"));
    let png = w
        .nft_thumbnail(&clip.image_url, ThumbnailSize::Tile)
        .await
        .expect("a thumbnail of a listed picture");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    for other in ["http://127.0.0.1:9/secret.png", "file:///etc/passwd", ""] {
        assert!(
            w.nft_thumbnail(other, ThumbnailSize::Tile)
                .await
                .expect_err(other)
                .is(ServiceErrorCode::InvalidParameters)
        );
    }
    assert_eq!(
        w.nft_link(&clip.external_link).expect("its link").as_str(),
        clip.external_link
    );
    for other in ["https://phishing.example/", "javascript:alert(1)", ""] {
        assert!(
            w.nft_link(other)
                .expect_err(other)
                .is(ServiceErrorCode::InvalidParameters)
        );
    }

    assert!(w.open_widget());
    assert!(w.close_widget());
    assert_eq!(
        w.get_status(),
        ServiceLifeCycle::Login,
        "closing does not log out"
    );

    // A restart finds the user logged in, with the wallet.
    let restarted = widget(&stack, store.clone()).await;
    assert_eq!(restarted.get_status(), ServiceLifeCycle::Login);
    assert_eq!(
        restarted.get_balance(None).await.expect("balances")[0].balance,
        "1.25"
    );

    w.logout().await.expect("logged out");
    assert_eq!(w.get_status(), ServiceLifeCycle::BeforeLogin);
    w.finalize().await;
    assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
}

pub async fn a_wallet_whose_key_is_elsewhere_asks_for_the_pin(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    widget(&stack, store.clone())
        .await
        .register("135790")
        .await
        .expect("registered");
    // Another device: the same login, none of the keychain's wallet entries.
    let other: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let login = Login::new(stack.app_id().await, &stack.app_key, other.clone());
    let w = Widget::new(Arc::new(login), other).with_kdf(KdfStrength::Test);
    w.init(stack.sdk_config()).await.expect("init");
    let user = w
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    assert_eq!(user.user_status.login_status, LoginStatus::PinRequired);
    assert_eq!(user.user_status.pin_required, Some(true));
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);
}
