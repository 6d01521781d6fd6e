//! The demo ENS: a registry, a resolver and a reverse registrar
//! (`contracts/DemoEns.sol`), with two demo names. `alice.eth` is Alice's, and
//! her address's primary name is `alice.eth`. `bob.eth` is Bob's, but Bob's
//! reverse record claims `alice.eth`, which resolves to Alice: a wallet must not
//! show Bob's address as `alice.eth`.

use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256, U256, keccak256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol;
use satchel_chain::ens::namehash;
use url::Url;

sol!(
    #[sol(rpc)]
    DemoEnsRegistry,
    "contracts/artifacts/DemoEnsRegistry.json"
);
sol!(
    #[sol(rpc)]
    DemoEnsResolver,
    "contracts/artifacts/DemoEnsResolver.json"
);
sol!(
    #[sol(rpc)]
    DemoReverseRegistrar,
    "contracts/artifacts/DemoReverseRegistrar.json"
);

/// The demo ENS's contracts and its two named people.
#[derive(Debug, Clone, Copy)]
pub struct DemoEns {
    pub registry: Address,
    pub resolver: Address,
    pub reverse_registrar: Address,
    /// `alice.eth`, whose primary name is `alice.eth`.
    pub alice: Address,
    /// `bob.eth`, whose reverse record falsely claims `alice.eth`.
    pub bob: Address,
}

/// Sends `call` and waits for its receipt.
async fn mined<P: Provider, C: alloy::sol_types::SolCall>(
    call: alloy::contract::SolCallBuilder<P, C>,
) -> anyhow::Result<()> {
    call.send().await?.get_receipt().await?;
    Ok(())
}

/// A demo person's key: fixed, so the names are the same on every run.
fn person(name: &str) -> PrivateKeySigner {
    PrivateKeySigner::from_bytes(&keccak256(format!("satchel demo ens {name}")))
        .expect("a hash is a valid key")
}

/// Deploys the demo ENS from `provider` (the deployer's, which owns the root,
/// `eth` and `reverse`) and names Alice and Bob.
pub(super) async fn deploy(provider: &DynProvider, rpc_url: &Url) -> anyhow::Result<DemoEns> {
    let owner = super::DEPLOYER_KEY.parse::<PrivateKeySigner>()?.address();
    let registry = DemoEnsRegistry::deploy(provider).await?;
    let resolver = DemoEnsResolver::deploy(provider, *registry.address()).await?;
    let reverse =
        DemoReverseRegistrar::deploy(provider, *registry.address(), *resolver.address()).await?;
    let label = |l: &str| keccak256(l);
    mined(registry.setSubnodeOwner(B256::ZERO, label("eth"), owner)).await?;
    mined(registry.setSubnodeOwner(B256::ZERO, label("reverse"), owner)).await?;
    mined(registry.setSubnodeOwner(namehash("reverse"), label("addr"), *reverse.address())).await?;

    let (alice, bob) = (person("alice"), person("bob"));
    for (who, signer) in [("alice", &alice), ("bob", &bob)] {
        let node = namehash(&format!("{who}.eth"));
        mined(registry.setSubnodeOwner(namehash("eth"), label(who), owner)).await?;
        mined(registry.setResolver(node, *resolver.address())).await?;
        mined(resolver.setAddr(node, signer.address())).await?;
        // Gas for the reverse record each sets from its own key.
        let fund = TransactionRequest::default()
            .to(signer.address())
            .value(U256::from(10u64).pow(U256::from(17)));
        provider.send_transaction(fund).await?.get_receipt().await?;
    }
    for signer in [&alice, &bob] {
        let own = ProviderBuilder::new()
            .wallet(EthereumWallet::from(signer.clone()))
            .connect_http(rpc_url.clone())
            .erased();
        // Both claim alice.eth; only Alice's claim resolves back to her.
        DemoReverseRegistrar::new(*reverse.address(), &own)
            .setName("alice.eth".into())
            .send()
            .await?
            .get_receipt()
            .await?;
    }
    Ok(DemoEns {
        registry: *registry.address(),
        resolver: *resolver.address(),
        reverse_registrar: *reverse.address(),
        alice: alice.address(),
        bob: bob.address(),
    })
}
