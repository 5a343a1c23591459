export { keyRefFor, envVarFor, keyNameSchema, type KeyRef } from './refs'
export { EnvKeyStore, MemoryKeyStore, LayeredKeyStore, type KeyStore, type KeyStorageInfo, type StoredKeyRef } from './key-stores'
export { defaultKeyStore, setDefaultKeyStore } from './default'
