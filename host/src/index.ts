// The async boundary lets module federation negotiate the shared singletons before any of them is used.
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
